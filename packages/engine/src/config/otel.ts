import { z } from "zod";

/**
 * `[otel]`: where `baton otel export` and `baton serve --otel` send traces. The standard
 * `OTEL_EXPORTER_OTLP_*` variables override these keys, and `--endpoint` overrides both.
 */
export const otelConfigSchema = z
  .strictObject({
    /** The collector's OTLP/HTTP base URL; `/v1/traces` is appended (default http://localhost:4318). */
    endpoint: z.url({ protocol: /^https?$/ }).optional(),
    /** Headers sent with every export request (an API key, a tenant). */
    headers: z.record(z.string().min(1), z.string()).default({}),
    /** The OTLP/HTTP encoding. */
    protocol: z.enum(["http/protobuf", "http/json"]).default("http/protobuf"),
    /** Record redacted, capped messages and tool arguments in spans; off, spans carry no content. */
    capture_content: z.boolean().default(false),
  })
  .prefault({});
export type OtelConfig = z.infer<typeof otelConfigSchema>;
