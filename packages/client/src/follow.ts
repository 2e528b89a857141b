import { definedFields, isFinalType, type Envelope } from "@baton/protocol/core";
import { apiError } from "./errors.ts";
import { parseSse } from "./sse/parse-sse.ts";

/**
 * What following a stream yields: each durable event once, in order, with its cursor (`seq` on
 * a run's stream, `pos` on the feed); ephemeral events (`agent.delta`) as they come, best-effort;
 * and `resync` when the server cut this follower off for falling behind: the follower has
 * reconnected from its last cursor by itself, nothing is lost, but whatever the host keeps
 * besides the events (a rendered view of ephemeral text, say) may want refreshing.
 */
export type FollowItem = { type: "event"; id: number; event: Envelope } | { type: "ephemeral"; event: Envelope } | { type: "resync"; after: number };

export type FollowOptions = {
  /** Start after this cursor (default 0: from the first event). */
  after?: number;
  /** Stops following (the iterator then throws the signal's reason). */
  signal?: AbortSignal;
};

type StreamRequest = {
  fetch: typeof fetch;
  url: string;
  headers: Record<string, string>;
  /** A run's stream ends with its final event; the feed never ends. */
  endsAtFinal: boolean;
};

/** The server's first frame says 2000 ms; until then, and between failed attempts, this. */
const DEFAULT_RETRY_MS = 2000;

/**
 * Follows a server-sent event stream of `baton serve`, reconnecting after every disconnect
 * (a dropped connection, a server restart, a resync) with `Last-Event-ID` set to the last
 * cursor it yielded: no event twice, none missed. Ends when a run's stream has given its final
 * event (or the server answers 204: the run ended at or before the cursor). A refusal (401,
 * 404, …) is thrown as a BatonApiError; a 5xx or a network error is retried.
 */
export async function* followStream(request: StreamRequest, options: FollowOptions = {}): AsyncGenerator<FollowItem> {
  const { signal } = options;
  let last = options.after ?? 0;
  let retryMs = DEFAULT_RETRY_MS;
  for (;;) {
    signal?.throwIfAborted();
    let response: Response | undefined;
    try {
      response = await request.fetch(request.url, { headers: { ...request.headers, accept: "text/event-stream", "last-event-id": String(last) }, ...definedFields({ signal }) });
    } catch (error) {
      if (signal?.aborted === true) throw error;
    }
    if (response !== undefined) {
      if (response.status === 204) return;
      if (!response.ok && response.status < 500) throw await apiError(response);
      if (response.ok && response.body !== null) {
        try {
          for await (const item of parseSse(response.body)) {
            if (item.kind === "retry") {
              retryMs = item.ms;
              continue;
            }
            const { frame } = item;
            if (frame.event === "resync") {
              const after = Number((JSON.parse(frame.data) as { after?: unknown }).after);
              yield { type: "resync", after: Number.isSafeInteger(after) ? after : last };
              break;
            }
            if (frame.event !== "message") continue;
            const event = JSON.parse(frame.data) as Envelope;
            if (frame.id === undefined) {
              yield { type: "ephemeral", event };
              continue;
            }
            const id = Number(frame.id);
            if (!Number.isSafeInteger(id) || id <= last) continue;
            last = id;
            yield { type: "event", id, event };
            if (request.endsAtFinal && isFinalType(event.type)) return;
          }
        } catch (error) {
          if (signal?.aborted === true) throw error;
          // The connection dropped mid-stream: reconnect from the last cursor.
        }
      } else {
        await response.body?.cancel().catch(() => {});
      }
    }
    await pause(retryMs, signal);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
