import net from "node:net";
import type { Envelope } from "@baton/protocol/core";
import type { LiveListener } from "../../contract/reading.ts";

export type { LiveListener };

export type LiveTapOptions = {
  /** Ends the tap (disconnects, stops retrying). */
  signal: AbortSignal;
  /** The run's socket now, or undefined (no writer, or a pointer file not written yet). */
  socketPath: () => string | undefined;
  /** False once the run has ended (or paused): no writer is coming, stop trying. */
  runIsLive: () => boolean;
  /** Wait before connecting again after a failed or lost connection. */
  retryMs: number;
};

/**
 * Longest line accepted from a writer: an ephemeral event is capped at the store's event limit
 * (1 MiB by default) before it is sent; this leaves room for the wrapper and escapes.
 */
export const MAX_LIVE_LINE_BYTES = 4 * 1024 * 1024;

/**
 * Receives a run's ephemeral events from the process writing it (see LiveServer), for as long
 * as `signal` allows. Best-effort by design: it connects when the run has a live socket; when
 * there is none yet, the socket is stale (a killed writer: ECONNREFUSED), or the connection
 * drops (the writer closed, or dropped this reader as too slow), it tries again after
 * `retryMs` while the run is live. Deltas sent while not connected are lost, never replayed.
 */
export function tapLive(listener: LiveListener, options: LiveTapOptions): void {
  const { signal } = options;
  let socket: net.Socket | undefined;
  let timer: NodeJS.Timeout | undefined;

  const retryLater = () => {
    socket = undefined;
    if (signal.aborted || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      connect();
    }, options.retryMs);
    timer.unref();
  };

  const connect = () => {
    if (signal.aborted || !options.runIsLive()) return;
    const path = options.socketPath();
    if (path === undefined) return retryLater();
    const current = net.connect(path);
    socket = current;
    current.unref();
    let partial: Buffer[] = [];
    let partialBytes = 0;
    current.on("data", (chunk: Buffer) => {
      let start = 0;
      for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
        partial.push(chunk.subarray(start, end));
        const line = partial.length === 1 ? (partial[0] as Buffer) : Buffer.concat(partial);
        partial = [];
        partialBytes = 0;
        start = end + 1;
        const parsed = parseLiveLine(line);
        if (parsed !== undefined && !signal.aborted) listener(parsed.event, parsed.afterSeq);
      }
      if (start < chunk.byteLength) {
        partial.push(chunk.subarray(start));
        partialBytes += chunk.byteLength - start;
        if (partialBytes > MAX_LIVE_LINE_BYTES) current.destroy();
      }
    });
    current.on("error", () => current.destroy());
    current.on("close", () => {
      if (socket === current) retryLater();
    });
  };

  signal.addEventListener(
    "abort",
    () => {
      clearTimeout(timer);
      socket?.destroy();
    },
    { once: true },
  );
  connect();
}

/** A line of the live socket, checked for shape (a writer of ours wrote it; anything else is skipped). */
export function parseLiveLine(line: Buffer): { event: Envelope; afterSeq: number } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { after_seq: afterSeq, event } = value as { after_seq?: unknown; event?: unknown };
  if (typeof afterSeq !== "number" || !Number.isSafeInteger(afterSeq) || afterSeq < 0) return undefined;
  if (typeof event !== "object" || event === null) return undefined;
  const envelope = event as Partial<Envelope>;
  if (typeof envelope.type !== "string" || typeof envelope.run !== "string" || envelope.seq !== undefined) return undefined;
  if (typeof envelope.data !== "object" || envelope.data === null) return undefined;
  return { event: envelope as Envelope, afterSeq };
}
