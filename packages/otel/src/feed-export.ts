import type { Store } from "@baton/engine/store";
import { definedFields } from "@baton/protocol/core";
import { exportSpans, FLUSH_AFTER_MS, type ExportTotals } from "./export-loop.ts";
import { readExportCursor, startPosition, writeExportCursor } from "./export-cursor.ts";
import { batonResource } from "./readable-span.ts";
import type { SpanSink } from "./span-sink.ts";
import { feedSpanItems } from "./span-sources.ts";

export type FeedExportOptions = {
  sink: SpanSink;
  signal: AbortSignal;
  captureContent?: boolean;
  redact?: (text: string) => string;
  batchSpans?: number;
  onRetry?: (error: unknown, attempt: number, waitMs: number) => void;
};

/**
 * Exports every run's spans as the store commits their events, from the cursor kept in the
 * store, saving it after each accepted batch: a restart resumes where the last accepted batch
 * ended, and sends every span once. Runs until `signal` aborts.
 */
export async function followFeedExport(store: Store, options: FeedExportOptions): Promise<ExportTotals> {
  const epoch = store.feedEpoch;
  const after = startPosition(readExportCursor(store.batonDir), epoch);
  const items = feedSpanItems(store, definedFields({ after, follow: true, signal: options.signal, captureContent: options.captureContent === true, redact: options.redact }));
  return exportSpans(
    items,
    definedFields({
      sink: options.sink,
      resource: batonResource(),
      signal: options.signal,
      flushAfterMs: FLUSH_AFTER_MS,
      batchSpans: options.batchSpans,
      onRetry: options.onRetry,
      onAccepted: (pos: number) => writeExportCursor(store.batonDir, { epoch, pos }),
    }),
  );
}
