// Server-sent event frames, encoded once. A hub's event goes to every client of the run:
// hono's `writeSSE` would format and encode it again for each client, so the hub builds the
// bytes once (the same wire format: `id:`, `data:` lines, a blank line) and every client
// writes them with the SSE stream's `write`. JSON has no raw newline, so `data` is one line.

const encoder = new TextEncoder();

/** What the browser waits before reconnecting a dropped stream (ms): the first frame of every stream. */
export const RETRY_MS = 2000;

/** A durable event: `id` is its cursor (seq on a run's stream, pos on the feed); default event name. */
export function eventFrame(json: string, id: number | undefined): Uint8Array {
  return encoder.encode(id === undefined ? `data: ${json}\n\n` : `id: ${id}\ndata: ${json}\n\n`);
}

/** The slow-client signal: resume from `after` (no id: the client's last id stays the last event's). */
export function resyncFrame(after: number): Uint8Array {
  return encoder.encode(`event: resync\ndata: ${JSON.stringify({ after })}\n\n`);
}

export const RETRY_FRAME: Uint8Array = encoder.encode(`retry: ${RETRY_MS}\n\n`);

/** A comment line: keeps proxies and idle-connection timeouts from closing a quiet stream. */
export const PING_FRAME: Uint8Array = encoder.encode(": ping\n\n");
