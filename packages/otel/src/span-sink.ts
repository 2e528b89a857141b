import { ExportResultCode } from "@opentelemetry/core";
import { OTLPTraceExporter as JsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtoExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { ReadableSpan, SpanExporter } from "@opentelemetry/sdk-trace-base";
import type { OtlpSettings } from "./otlp-settings.ts";

/** Where batches of spans go; `send` resolves once the receiver accepted the batch, and rejects otherwise. */
export type SpanSink = {
  send(spans: ReadableSpan[]): Promise<void>;
  shutdown(): Promise<void>;
};

/** The official OTLP/HTTP exporter (JSON or protobuf), called directly: one batch at a time, no queue. */
export function otlpSink(settings: OtlpSettings): SpanSink {
  const config = { url: settings.url, headers: settings.headers };
  const exporter: SpanExporter = settings.protocol === "http/json" ? new JsonExporter(config) : new ProtoExporter(config);
  return {
    send: (spans) =>
      new Promise((resolve, reject) => {
        exporter.export(spans, (result) => {
          if (result.code === ExportResultCode.SUCCESS) resolve();
          else reject(result.error ?? new Error(`the OTLP receiver at ${settings.url} did not accept the batch`));
        });
      }),
    shutdown: () => exporter.shutdown(),
  };
}
