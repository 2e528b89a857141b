import type { Envelope } from "@baton/protocol/core";

/** The part of the browser's EventSource this module uses (tests pass a fake). */
export type EventSourceLike = {
  /** `open`, `error`, `message` (unnamed events) and `resync`; the last two carry `data`. */
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void;
  close(): void;
};

export type ConnectionState = "connecting" | "live" | "reconnecting" | "ended" | "error";

export type Timers = {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
};

export type FollowOptions = {
  /** The stream's URL for a client that has applied everything up to cursor `after`. */
  url: (after: number) => string;
  open: (url: string) => EventSourceLike;
  /** The event's cursor (`seq` on a run's stream, `pos` on the feed); undefined for ephemeral ones. */
  cursorOf: (event: Envelope) => number | undefined;
  /** True for the event after which the stream has nothing more to say. */
  isLast: (event: Envelope) => boolean;
  /** Events in stream order, in batches; never one at or below a cursor already delivered. */
  onEvents: (events: Envelope[]) => void;
  onState: (state: ConnectionState, detail?: string) => void;
  /** Called before each reopen: ephemeral events sent meanwhile are lost. */
  onReconnect?: () => void;
  /**
   * Asked after a failed connection, which an EventSource does not explain: a message when
   * retrying is futile (bad token, unknown run), undefined to keep retrying.
   */
  diagnose?: () => Promise<string | undefined>;
  after?: number;
  timers?: Timers;
};

/** First delay before reopening a failed stream; it doubles up to the cap. */
export const RETRY_FIRST_MS = 250;
/** Longest wait between two attempts: a restarted server is picked up within this. */
export const RETRY_MAX_MS = 4000;
/** Events arriving within this window are applied as one batch (one render). */
export const BATCH_MS = 30;

/**
 * Follows a server-sent event stream by cursor, for as long as it takes: a dropped or failed
 * connection (a server restart) and a `resync` signal (a slow client cut off) both reopen
 * the stream from the last cursor delivered, and anything replayed at or below it is
 * dropped, so the consumer sees every event once, in order.
 *
 * The browser's own reconnect is not used: it would resume from the URL's stale `after`.
 */
export function followStream(options: FollowOptions): { close(): void } {
  const timers = options.timers ?? { setTimeout: (f, ms) => globalThis.setTimeout(f, ms), clearTimeout: (h) => globalThis.clearTimeout(h as number) };
  let cursor = options.after ?? 0;
  let source: EventSourceLike | undefined;
  let failures = 0;
  let closed = false;
  let retryTimer: unknown;
  let batchTimer: unknown;
  let batch: Envelope[] = [];

  const flush = () => {
    if (batchTimer !== undefined) timers.clearTimeout(batchTimer);
    batchTimer = undefined;
    if (batch.length === 0) return;
    const events = batch;
    batch = [];
    options.onEvents(events);
  };

  const stop = (deliver: boolean) => {
    closed = true;
    source?.close();
    source = undefined;
    if (retryTimer !== undefined) timers.clearTimeout(retryTimer);
    if (deliver) flush();
    else if (batchTimer !== undefined) timers.clearTimeout(batchTimer);
  };

  const connect = () => {
    retryTimer = undefined;
    if (closed) return;
    const current = options.open(options.url(cursor));
    source = current;
    current.addEventListener("open", () => {
      if (source !== current) return;
      failures = 0;
      options.onState("live");
    });
    current.addEventListener("message", (message) => {
      if (source !== current) return;
      const event = parse(message.data);
      if (event === undefined) return;
      const at = options.cursorOf(event);
      if (at !== undefined) {
        if (at <= cursor) return;
        cursor = at;
      }
      batch.push(event);
      if (options.isLast(event)) {
        stop(true);
        options.onState("ended");
        return;
      }
      batchTimer ??= timers.setTimeout(flush, BATCH_MS);
    });
    current.addEventListener("resync", () => {
      if (source === current) reopen(0);
    });
    current.addEventListener("error", () => {
      if (source !== current) return;
      failures += 1;
      reopen(Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (failures - 1)));
    });
  };

  const reopen = (delayMs: number) => {
    source?.close();
    source = undefined;
    flush();
    options.onReconnect?.();
    options.onState("reconnecting");
    const retry = () => {
      if (!closed) retryTimer = timers.setTimeout(connect, delayMs);
    };
    if (options.diagnose === undefined || delayMs === 0) return retry();
    options.diagnose().then(
      (fatal) => {
        if (fatal === undefined) return retry();
        stop(true);
        options.onState("error", fatal);
      },
      () => retry(),
    );
  };

  options.onState("connecting");
  connect();
  return { close: () => stop(false) };
}

function parse(text: unknown): Envelope | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || typeof (value as Envelope).type !== "string") return undefined;
    return value as Envelope;
  } catch {
    return undefined;
  }
}
