import { setTimeout as delay } from "node:timers/promises";
import { definedFields } from "@baton/protocol/core";
import type { Resource } from "@opentelemetry/resources";
import { toReadableSpan } from "./readable-span.ts";
import type { SpanRecord } from "./span-record.ts";
import type { SpanSink } from "./span-sink.ts";

/** What a source yields per event read: the spans it finished, and the cursor just past it. */
export type SpanItem = { spans: SpanRecord[]; cursor: number };

/** Spans per request: the OTLP receivers' usual limits (4 MiB bodies) hold this many comfortably. */
export const DEFAULT_BATCH_SPANS = 512;
/** While following, a part-filled batch is sent at the latest this long after its first span. */
export const FLUSH_AFTER_MS = 1_000;
/** Waits between tries of a batch the receiver did not accept, the last one repeated. */
export const RETRY_WAITS_MS = [500, 1_000, 2_000, 5_000, 10_000, 30_000];

export type ExportLoopOptions = {
  sink: SpanSink;
  resource: Resource;
  batchSpans?: number;
  /** Called after each accepted batch with the cursor up to which everything is delivered. */
  onAccepted?: (cursor: number, spans: number) => void | Promise<void>;
  /** Tries per batch before the loop gives up (default: forever, until `signal` aborts). */
  maxTries?: number;
  onRetry?: (error: unknown, attempt: number, waitMs: number) => void;
  signal?: AbortSignal;
  /**
   * For a source that waits for new events (following): a part-filled batch is sent at the
   * latest this long after its first span was read. Without it, batches are sent full (and
   * the last one at the end of the source).
   */
  flushAfterMs?: number;
};

export type ExportTotals = { spans: number; batches: number; cursor: number | undefined };

/**
 * Sends the spans of `items` in batches, one request at a time: the next batch is read only
 * after the receiver accepted the previous one, so nothing waits in a queue that could
 * overflow (the SDK's BatchSpanProcessor drops spans when its queue is full), and the cursor
 * handed to `onAccepted` never passes a span that was not delivered. A batch that fails is
 * tried again, the same spans with the same ids.
 */
export async function exportSpans(items: AsyncIterable<SpanItem>, options: ExportLoopOptions): Promise<ExportTotals> {
  const batchSpans = options.batchSpans ?? DEFAULT_BATCH_SPANS;
  const totals: ExportTotals = { spans: 0, batches: 0, cursor: undefined };
  let batch: SpanRecord[] = [];
  let cursor: number | undefined;
  const flush = async () => {
    if (cursor === undefined || (batch.length === 0 && cursor === totals.cursor)) return;
    if (batch.length > 0) await sendWithRetries(batch, options);
    totals.spans += batch.length;
    totals.batches += batch.length > 0 ? 1 : 0;
    totals.cursor = cursor;
    await options.onAccepted?.(cursor, batch.length);
    batch = [];
    due = undefined;
  };
  const iterator = items[Symbol.asyncIterator]();
  let next: Promise<IteratorResult<SpanItem>> | undefined;
  // One timer per batch, not one per event read: a race per event would cost more than the export.
  let due: Promise<"due"> | undefined;
  try {
    for (;;) {
      next ??= iterator.next();
      if (options.flushAfterMs !== undefined && batch.length > 0) due ??= delay(options.flushAfterMs, "due" as const, { ref: false });
      const result = due === undefined ? await next : await Promise.race([next, due]);
      if (result === "due") {
        due = undefined;
        await flush();
        continue;
      }
      next = undefined;
      if (result.done === true) break;
      batch.push(...result.value.spans);
      cursor = result.value.cursor;
      if (batch.length >= batchSpans) await flush();
    }
    await flush();
  } finally {
    await iterator.return?.();
  }
  return totals;
}

async function sendWithRetries(batch: SpanRecord[], options: ExportLoopOptions): Promise<void> {
  const spans = batch.map((record) => toReadableSpan(record, options.resource));
  for (let attempt = 1; ; attempt += 1) {
    try {
      await options.sink.send(spans);
      return;
    } catch (error) {
      if (options.signal?.aborted === true || attempt >= (options.maxTries ?? Number.POSITIVE_INFINITY)) throw error;
      const wait = RETRY_WAITS_MS[Math.min(attempt - 1, RETRY_WAITS_MS.length - 1)] ?? 30_000;
      options.onRetry?.(error, attempt, wait);
      await delay(wait, undefined, definedFields({ signal: options.signal }));
    }
  }
}
