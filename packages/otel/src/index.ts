// @baton/otel: OpenTelemetry traces of Baton runs, built from the durable log, exported over OTLP/HTTP.
export { RunSpanTree, MAX_CAPTURED_CHARS, type SpanTreeOptions } from "./span-tree.ts";
export type { SpanRecord, Attributes } from "./span-record.ts";
export { traceIdOf, spanIdOf } from "./span-ids.ts";
export { GEN_AI, GEN_AI_CONVENTIONS_VERSION, OPERATION, BATON } from "./gen-ai-conventions.ts";
export { exportSpans, DEFAULT_BATCH_SPANS, FLUSH_AFTER_MS, type SpanItem, type ExportTotals, type ExportLoopOptions } from "./export-loop.ts";
export { otlpSink, type SpanSink } from "./span-sink.ts";
export { resolveOtlpSettings, parseHeaders, DEFAULT_OTLP_ENDPOINT, type OtlpSettings, type OtelConfigInput } from "./otlp-settings.ts";
export { runSpanItems, feedSpanItems } from "./span-sources.ts";
export { followFeedExport, type FeedExportOptions } from "./feed-export.ts";
export { readExportCursor, writeExportCursor, CURSOR_FILE, type ExportCursor } from "./export-cursor.ts";
export { batonResource, toReadableSpan } from "./readable-span.ts";
