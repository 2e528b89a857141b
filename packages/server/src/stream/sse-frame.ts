// Server-sent event frames, encoded once. A hub's event goes to every client of the run, so
// the hub builds its bytes once (the wire format: `id:`, `data:` lines, a blank line) and
// every client writes those same bytes. JSON has no raw newline, so `data` is one line.

const encoder = new TextEncoder();

/** What the browser waits before reconnecting a dropped stream (ms): the first frame of every stream. */
export const RETRY_MS = 2000;

/** A durable event: `id` is its cursor (seq on a run's stream, pos on the feed); default event name. */
export function eventFrame(json: string, id: number | undefined): Uint8Array {
  return encoder.encode(frameText(json, id));
}

function frameText(json: string, id: number | undefined): string {
  return id === undefined ? `data: ${json}\n\n` : `id: ${id}\ndata: ${json}\n\n`;
}

/** The slow-client signal: resume from `after` (no id: the client's last id stays the last event's). */
export function resyncFrame(after: number): Uint8Array {
  return encoder.encode(`event: resync\ndata: ${JSON.stringify({ after })}\n\n`);
}

export const RETRY_FRAME: Uint8Array = encoder.encode(`retry: ${RETRY_MS}\n\n`);

/** A comment line: keeps proxies and idle-connection timeouts from closing a quiet stream. */
export const PING_FRAME: Uint8Array = encoder.encode(": ping\n\n");

/**
 * Size of the shared buffers frames are packed into: large enough that a burst of events is
 * a few views written without a copy, small enough that a slow client's write in flight pins
 * little beyond the ring (a view keeps its whole slab alive).
 */
const SLAB_BYTES = 64 * 1024;

/**
 * Encodes a hub's frames one after another into shared slabs: consecutive frames are
 * adjacent bytes of one buffer, so a client writes a run of them as a single view of the slab
 * (a span of the hub's ring) instead of copying them into a buffer of its own. Each frame
 * is written once and never changed; a frame larger than a slab gets a buffer of its own.
 */
export class FramePacker {
  #slab: Buffer = Buffer.allocUnsafeSlow(SLAB_BYTES);
  #used = 0;

  /** The frame of an event (`id` undefined: an ephemeral one), as a view of a slab. */
  frame(json: string, id: number | undefined): Uint8Array {
    const text = frameText(json, id);
    const length = Buffer.byteLength(text);
    if (length > SLAB_BYTES) return Buffer.from(text);
    if (this.#used + length > SLAB_BYTES) {
      this.#slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
      this.#used = 0;
    }
    const start = this.#used;
    this.#slab.write(text, start);
    this.#used += length;
    return this.#slab.subarray(start, start + length);
  }
}
