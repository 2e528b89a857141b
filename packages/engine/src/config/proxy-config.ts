import { z } from "zod";
import { definedFields } from "@baton/protocol/core";

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name");
const price = z.strictObject({
  input: z.number().min(0),
  output: z.number().min(0),
  cache_read: z.number().min(0).optional(),
  cache_write: z.number().min(0).optional(),
});

/** One provider's upstream: its base URL and where Baton reads its key (one of `key_env`, `key_file`, `key_command`). */
function upstreamSchema(keyEnv: string) {
  return z
    .strictObject({
      /**
       * Where the provider's API is; any compatible gateway works. The agent's path is appended
       * (`/v1/messages`). Default: the provider's usual base-URL variable in Baton's environment
       * (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`, `GOOGLE_GEMINI_BASE_URL`), else its public API.
       */
      base_url: z.url({ protocol: /^https?$/ }).optional(),
      /** A variable of Baton's environment holding the key (the default names the provider's usual one). */
      key_env: envName.optional(),
      /** A file holding the key. */
      key_file: z.string().min(1).optional(),
      /** A command printing the key (`pass show anthropic`), run with `sh -c`. */
      key_command: z.string().min(1).optional(),
    })
    .refine((u) => [u.key_env, u.key_file, u.key_command].filter((v) => v !== undefined).length <= 1, "give at most one of key_env, key_file, key_command")
    .transform((u) => ({
      ...definedFields({ base_url: u.base_url }),
      key: u.key_file !== undefined ? { file: u.key_file } : u.key_command !== undefined ? { command: u.key_command } : { env: u.key_env ?? keyEnv },
    }))
    .prefault({});
}

/**
 * `[proxy]`: Baton's loopback inference proxy. On by default: agents whose entry says how to
 * point them at it get its URL and a run token instead of the provider's key.
 */
export const proxyConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(true),
    anthropic: upstreamSchema("ANTHROPIC_API_KEY"),
    openai: upstreamSchema("OPENAI_API_KEY"),
    gemini: upstreamSchema("GEMINI_API_KEY"),
    /** USD per million tokens by model id (or id prefix); these win over Baton's table. */
    prices: z.record(z.string().min(1), price).default({}),
    /** Output tokens a request is reserved for against a budget when it sets no cap of its own. */
    default_max_output_tokens: z.number().int().positive().max(10_000_000).default(8_192),
  })
  .prefault({});
export type ProxyConfig = z.infer<typeof proxyConfigSchema>;

/** Each provider's public API, and the variable that names another (a gateway) in Baton's environment. */
export const DEFAULT_UPSTREAMS = {
  anthropic: { base_url: "https://api.anthropic.com", env: "ANTHROPIC_BASE_URL" },
  openai: { base_url: "https://api.openai.com", env: "OPENAI_BASE_URL" },
  gemini: { base_url: "https://generativelanguage.googleapis.com", env: "GOOGLE_GEMINI_BASE_URL" },
} as const;
