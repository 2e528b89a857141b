/** How spans are sent: where, with which headers, in which encoding. */
export type OtlpSettings = {
  /** The traces URL, e.g. `http://localhost:4318/v1/traces`. */
  url: string;
  headers: Record<string, string>;
  protocol: "http/protobuf" | "http/json";
};

/** What `[otel]` in config.toml holds (all optional there). */
export type OtelConfigInput = { endpoint?: string | undefined; headers?: Record<string, string> | undefined; protocol?: "http/protobuf" | "http/json" | undefined };

/** The OTLP/HTTP default collector address (OpenTelemetry's exporter specification). */
export const DEFAULT_OTLP_ENDPOINT = "http://localhost:4318";
const TRACES_PATH = "v1/traces";

/**
 * The settings, from (strongest first) the command line's `--endpoint`, the standard
 * `OTEL_EXPORTER_OTLP_TRACES_*` and `OTEL_EXPORTER_OTLP_*` variables, then `[otel]` in config.
 * As the specification says, a signal-specific endpoint is the traces URL as given, and a
 * general one gets `v1/traces` appended.
 */
export function resolveOtlpSettings(config: OtelConfigInput, env: Record<string, string | undefined>, endpointFlag?: string): OtlpSettings {
  const tracesUrl = endpointFlag ?? nonEmpty(env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"]);
  const general = nonEmpty(env["OTEL_EXPORTER_OTLP_ENDPOINT"]) ?? config.endpoint ?? DEFAULT_OTLP_ENDPOINT;
  const url = tracesUrl ?? `${general.replace(/\/+$/, "")}/${TRACES_PATH}`;
  const protocol = protocolOf(nonEmpty(env["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"]) ?? nonEmpty(env["OTEL_EXPORTER_OTLP_PROTOCOL"])) ?? config.protocol ?? "http/protobuf";
  const headers = { ...config.headers, ...parseHeaders(env["OTEL_EXPORTER_OTLP_HEADERS"]), ...parseHeaders(env["OTEL_EXPORTER_OTLP_TRACES_HEADERS"]) };
  return { url, headers, protocol };
}

/** `key1=value1,key2=value2`, values percent-decoded (the W3C Baggage format the specification names). */
export function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    try {
      headers[key] = decodeURIComponent(pair.slice(at + 1).trim());
    } catch {
      headers[key] = pair.slice(at + 1).trim();
    }
  }
  return headers;
}

function protocolOf(text: string | undefined): OtlpSettings["protocol"] | undefined {
  if (text === "http/protobuf" || text === "http/json") return text;
  return undefined;
}

function nonEmpty(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === "" ? undefined : text.trim();
}
