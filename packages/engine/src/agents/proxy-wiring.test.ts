import assert from "node:assert/strict";
import { test } from "node:test";
import { BUILTIN_AGENTS } from "./builtin-agents.ts";
import { proxiedEnv, PROVIDER_KEY_VARIABLES } from "./proxy-wiring.ts";

const access = { baseUrl: (provider: string) => (provider === "openai" ? "http://127.0.0.1:9/openai/v1" : `http://127.0.0.1:9/${provider}`), token: "baton-run-TOKEN" };
const keys = Object.fromEntries(PROVIDER_KEY_VARIABLES.map((name) => [name, `secret-${name}`]));

test("every provider key variable, and the ones [proxy] reads, are removed; the env wiring sets the base URL and the token", () => {
  const env = proxiedEnv({ PATH: "/bin", ...keys, MY_GATEWAY_KEY: "k", ANTHROPIC_BASE_URL: "https://gateway" }, BUILTIN_AGENTS.claude.proxy, access, ["MY_GATEWAY_KEY"]);
  assert.deepEqual(env, { PATH: "/bin", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/anthropic", ANTHROPIC_API_KEY: "baton-run-TOKEN" });
  const gemini = proxiedEnv({ ...keys }, BUILTIN_AGENTS.gemini.proxy, access);
  assert.deepEqual(gemini, { GOOGLE_GEMINI_BASE_URL: "http://127.0.0.1:9/gemini", GEMINI_API_KEY: "baton-run-TOKEN" });
  assert.deepEqual(proxiedEnv({ ...keys, HOME: "/h" }, { via: "none" }, access), { HOME: "/h" });
});

test("Codex: a Baton model provider chosen in CODEX_CONFIG, over what it held, its key in BATON_RUN_TOKEN", () => {
  const env = proxiedEnv({ OPENAI_API_KEY: "sk", CODEX_CONFIG: JSON.stringify({ model_reasoning_effort: "low", model_providers: { other: { name: "o" } } }) }, BUILTIN_AGENTS.codex.proxy, access);
  assert.equal(env["OPENAI_API_KEY"], undefined);
  assert.equal(env["BATON_RUN_TOKEN"], "baton-run-TOKEN");
  assert.deepEqual(JSON.parse(env["CODEX_CONFIG"] ?? ""), {
    model_reasoning_effort: "low",
    model_provider: "baton",
    model_providers: { other: { name: "o" }, baton: { name: "Baton", base_url: "http://127.0.0.1:9/openai/v1", env_key: "BATON_RUN_TOKEN", wire_api: "responses", requires_openai_auth: false } },
  });
});

test("OpenCode: built-in and configured providers of known packages get the proxy's base URL and the token; others are left", () => {
  const config = { model: "twin/m", provider: { twin: { npm: "@ai-sdk/openai-compatible", options: { baseURL: "http://elsewhere/v1", apiKey: "x", timeout: 5 } }, odd: { npm: "some-other-sdk" } } };
  const env = proxiedEnv({ OPENCODE_CONFIG_CONTENT: JSON.stringify(config) }, BUILTIN_AGENTS.opencode.proxy, access);
  const out = JSON.parse(env["OPENCODE_CONFIG_CONTENT"] ?? "") as { model: string; provider: Record<string, { options?: Record<string, unknown> }> };
  assert.equal(out.model, "twin/m");
  assert.deepEqual(out.provider["twin"]?.options, { baseURL: "http://127.0.0.1:9/openai/v1", apiKey: "baton-run-TOKEN", timeout: 5 });
  assert.deepEqual(out.provider["anthropic"]?.options, { baseURL: "http://127.0.0.1:9/anthropic/v1", apiKey: "baton-run-TOKEN" });
  assert.deepEqual(out.provider["google"]?.options, { baseURL: "http://127.0.0.1:9/gemini/v1beta", apiKey: "baton-run-TOKEN" });
  assert.deepEqual(out.provider["odd"], { npm: "some-other-sdk" });
});
