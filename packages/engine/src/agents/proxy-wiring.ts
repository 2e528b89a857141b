import { z } from "zod";
import { PROXY_PROVIDERS, type ProxyProvider } from "../proxy/wire-routes.ts";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name");

/**
 * How an agent is pointed at Baton's inference proxy: `env`, a base-URL variable and a key
 * variable (Claude Code's `ANTHROPIC_BASE_URL` and `ANTHROPIC_API_KEY`, Gemini CLI's
 * `GOOGLE_GEMINI_BASE_URL` and `GEMINI_API_KEY`); `opencode`, its providers' options in
 * `OPENCODE_CONFIG_CONTENT`; `codex`, a model provider of Baton's in `CODEX_CONFIG`; `none`,
 * not at all (the agent then gets the keys `pass_env` names, and no limit acts on the proxy's
 * figures).
 */
export const proxyWiringSchema = z.discriminatedUnion("via", [
  z.strictObject({ via: z.literal("env"), provider: z.enum(PROXY_PROVIDERS), base_url_env: envName, key_env: envName }),
  z.strictObject({ via: z.literal("opencode") }),
  z.strictObject({ via: z.literal("codex") }),
  z.strictObject({ via: z.literal("none") }),
]);
export type ProxyWiring = z.infer<typeof proxyWiringSchema>;

/** What the agent is given: the proxy's base URL for each provider, and the run's token. */
export type ProxyAccess = { baseUrl: (provider: ProxyProvider) => string; token: string };

/**
 * Provider key variables: never given to an agent that goes through the proxy, whatever its
 * `pass_env` says (with the variables `[proxy]` reads its keys from).
 */
export const PROVIDER_KEY_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "OPENAI_API_KEY",
  "CODEX_API_KEY",
  "AZURE_OPENAI_API_KEY",
  "GEMINI_API_KEY",
  "GOOGLE_API_KEY",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "GOOGLE_APPLICATION_CREDENTIALS",
  "OPENROUTER_API_KEY",
  "MISTRAL_API_KEY",
  "GROQ_API_KEY",
  "DEEPSEEK_API_KEY",
  "XAI_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
] as const;

/** The variable that holds the run token for Codex's Baton provider (its `env_key`). */
export const CODEX_TOKEN_ENV = "BATON_RUN_TOKEN";
/** The id of the model provider Baton adds to Codex's config. */
export const CODEX_PROVIDER_ID = "baton";

/**
 * The agent's environment pointed at the proxy: every provider key removed (and `extraKeys`,
 * the variables `[proxy]` reads keys from), then the entry's way of taking a base URL and a
 * key given the proxy's and the token.
 */
export function proxiedEnv(env: Record<string, string>, wiring: ProxyWiring, access: ProxyAccess, extraKeys: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  const drop = new Set<string>([...PROVIDER_KEY_VARIABLES, ...extraKeys]);
  for (const [name, value] of Object.entries(env)) if (!drop.has(name)) out[name] = value;
  switch (wiring.via) {
    case "none":
      return out;
    case "env":
      return { ...out, [wiring.base_url_env]: access.baseUrl(wiring.provider), [wiring.key_env]: access.token };
    case "codex":
      return { ...out, [CODEX_TOKEN_ENV]: access.token, CODEX_CONFIG: codexConfig(out["CODEX_CONFIG"], access) };
    case "opencode":
      return { ...out, OPENCODE_CONFIG_CONTENT: openCodeConfig(out["OPENCODE_CONFIG_CONTENT"], access) };
  }
}

/** Codex's session config with a model provider of Baton's (the Responses API at the proxy) chosen. */
function codexConfig(existing: string | undefined, access: ProxyAccess): string {
  const config = parseObject(existing);
  const providers = (config["model_providers"] ?? {}) as Record<string, unknown>;
  return JSON.stringify({
    ...config,
    model_provider: CODEX_PROVIDER_ID,
    model_providers: {
      ...providers,
      [CODEX_PROVIDER_ID]: { name: "Baton", base_url: access.baseUrl("openai"), env_key: CODEX_TOKEN_ENV, wire_api: "responses", requires_openai_auth: false },
    },
  });
}

/** The provider packages OpenCode uses, and the proxy route each speaks. */
const OPENCODE_PACKAGES: Record<string, ProxyProvider> = {
  "@ai-sdk/anthropic": "anthropic",
  "@ai-sdk/openai": "openai",
  "@ai-sdk/openai-compatible": "openai",
  "@ai-sdk/google": "gemini",
};
/** OpenCode's built-in provider ids, and the route each speaks. */
const OPENCODE_BUILTINS: Record<string, ProxyProvider> = { anthropic: "anthropic", openai: "openai", google: "gemini" };

/**
 * OpenCode's config (over what `OPENCODE_CONFIG_CONTENT` held) with every provider Baton can
 * route given the proxy's base URL and the token: the built-in `anthropic`, `openai` and
 * `google`, and each configured provider of a package that speaks one of their APIs.
 */
function openCodeConfig(existing: string | undefined, access: ProxyAccess): string {
  const config = parseObject(existing);
  const providers = { ...((config["provider"] ?? {}) as Record<string, Record<string, unknown>>) };
  const ids = new Set([...Object.keys(OPENCODE_BUILTINS), ...Object.keys(providers)]);
  for (const id of ids) {
    const entry = providers[id] ?? {};
    const route = typeof entry["npm"] === "string" ? OPENCODE_PACKAGES[entry["npm"]] : OPENCODE_BUILTINS[id];
    if (route === undefined) continue;
    const baseURL = route === "anthropic" ? `${access.baseUrl("anthropic")}/v1` : route === "gemini" ? `${access.baseUrl("gemini")}/v1beta` : access.baseUrl("openai");
    providers[id] = { ...entry, options: { ...((entry["options"] ?? {}) as Record<string, unknown>), baseURL, apiKey: access.token } };
  }
  return JSON.stringify({ ...config, provider: providers });
}

function parseObject(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
