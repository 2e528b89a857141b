import { withField, type BodyField } from "./request-body.ts";

// Which wire API a request through the proxy speaks, and where it goes upstream.

/** The upstreams the proxy knows: each has a base URL and a key of its own. */
export const PROXY_PROVIDERS = ["anthropic", "openai", "gemini"] as const;
export type ProxyProvider = (typeof PROXY_PROVIDERS)[number];

/** The model APIs whose usage the proxy reads. */
export type WireApiName = "anthropic_messages" | "openai_chat" | "openai_responses" | "gemini";

export type ProxyRoute = {
  provider: ProxyProvider;
  /** The model API, or undefined for a call that is not inference (model lists, token counts): passed through, not counted. */
  api: WireApiName | undefined;
  /** The path and query sent to the upstream, after its base URL. */
  upstreamPath: string;
  /** The model named in the path (Gemini), if any. */
  pathModel?: string;
  /** Gemini: streamed when the path says so. */
  pathStream?: boolean;
};

const GEMINI_CALL = /^\/v1(?:beta|alpha)?\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

/**
 * Reads a proxied request's path: `/<provider>/<the provider's own path>`. The agent is given
 * `http://127.0.0.1:PORT/anthropic` (or `/openai/v1`, `/gemini`) as its base URL; what follows
 * is the provider's API path, passed on unchanged. Undefined for a path of no provider.
 *
 * @example proxyRoute("POST", "/anthropic/v1/messages?beta=true") // → anthropic_messages, "/v1/messages?beta=true"
 */
export function proxyRoute(method: string, rawPath: string): ProxyRoute | undefined {
  const match = /^\/(anthropic|openai|gemini)(\/[^?]*)?(\?.*)?$/.exec(rawPath);
  if (match === null) return undefined;
  const provider = match[1] as ProxyProvider;
  const path = match[2] ?? "/";
  const query = match[3] ?? "";
  const upstreamPath = `${path}${query}`;
  const bare = path.replace(/\/+$/, "").replace(/^\/v1(?=\/)/, "");
  if (method !== "POST") return { provider, api: undefined, upstreamPath };
  if (provider === "anthropic") return { provider, api: bare === "/messages" ? "anthropic_messages" : undefined, upstreamPath };
  if (provider === "openai") {
    // A compaction (`/responses/compact`) is a model call like any other: counted and priced.
    const api = bare === "/chat/completions" ? "openai_chat" : bare === "/responses" || bare === "/responses/compact" ? "openai_responses" : undefined;
    return { provider, api, upstreamPath };
  }
  const gemini = GEMINI_CALL.exec(path);
  if (gemini === null) return { provider, api: undefined, upstreamPath };
  return { provider, api: "gemini", upstreamPath, pathModel: decodeURIComponent(gemini[1] ?? ""), pathStream: gemini[2] === "streamGenerateContent" };
}

/** Non-inference calls that spend nothing: token counts (POST). Every GET or HEAD (model lists and details) passes too. */
const TOKEN_COUNTS = [/^\/v1\/messages\/count_tokens\/?$/, /^\/v1(?:beta|alpha)?\/models\/[^/:]+:countTokens$/, /^\/v1\/responses\/input_tokens\/?$/];

/**
 * Whether a call that is not inference may pass the proxy uncounted as a model request: reads
 * (GET, HEAD) and token counts. Anything else (batches, files, fine-tunes: spend the proxy could
 * not count) is refused.
 */
export function passesThrough(method: string, route: ProxyRoute): boolean {
  if (method === "GET" || method === "HEAD") return true;
  const path = route.upstreamPath.split("?")[0] ?? "";
  return method === "POST" && TOKEN_COUNTS.some((pattern) => pattern.test(path));
}

/** What the proxy reads from a model request's body before sending it on. */
export type RequestFacts = {
  model: string;
  stream: boolean;
  /** The reply's cap on output tokens, if the request sets one. */
  maxOutputTokens?: number;
  /** A rough count of the input's tokens: its JSON's length / 4. */
  estimatedInputTokens: number;
};

/** The model, streaming and output cap of a model request, as each API writes them. */
export function requestFacts(route: ProxyRoute, body: Record<string, unknown>, bodyLength: number): RequestFacts {
  const estimatedInputTokens = Math.ceil(bodyLength / 4);
  const num = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined);
  if (route.api === "gemini") {
    const config = (body["generationConfig"] ?? {}) as Record<string, unknown>;
    return withCap({ model: route.pathModel ?? "", stream: route.pathStream === true, estimatedInputTokens }, num(config["maxOutputTokens"]));
  }
  const model = typeof body["model"] === "string" ? body["model"] : "";
  const stream = body["stream"] === true;
  const cap = num(body["max_tokens"]) ?? num(body["max_completion_tokens"]) ?? num(body["max_output_tokens"]);
  return withCap({ model, stream, estimatedInputTokens }, cap);
}

function withCap(facts: RequestFacts, cap: number | undefined): RequestFacts {
  return cap === undefined ? facts : { ...facts, maxOutputTokens: cap };
}

/**
 * The body sent upstream: the agent's bytes, except that a streamed chat completion asks for its
 * usage in the last chunk (`stream_options.include_usage`), which OpenAI sends only when asked.
 */
export function upstreamBody(route: ProxyRoute, raw: Buffer, fields: ReadonlyMap<string, BodyField>): Buffer {
  if (route.api !== "openai_chat" || fields.get("stream")?.value !== true) return raw;
  const current = fields.get("stream_options")?.value;
  const options = (typeof current === "object" && current !== null ? current : {}) as Record<string, unknown>;
  return withField(raw, fields, "stream_options", { ...options, include_usage: true });
}
