// @baton/otel/testing: an in-process OTLP/HTTP receiver and run fixtures, for tests and benchmarks.
export { OtlpReceiver, type ReceivedSpan } from "./otlp-receiver.ts";
export { spanCount, writeToolRun, type ToolRunShape } from "./tool-run.ts";
