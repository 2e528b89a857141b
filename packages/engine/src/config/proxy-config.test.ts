import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { isBatonError } from "../errors.ts";
import { readKey } from "../proxy/key-source.ts";
import { upstreamBaseUrl } from "../proxy/process-proxy.ts";
import { parseConfig } from "./config.ts";

test("[proxy]: on by default, each provider's key from its usual variable, a base URL from the config, Baton's environment or the public API", () => {
  const defaults = parseConfig("", "c.toml").proxy;
  assert.equal(defaults.enabled, true);
  assert.deepEqual(defaults.anthropic.key, { env: "ANTHROPIC_API_KEY" });
  assert.equal(upstreamBaseUrl(defaults, "anthropic", {}), "https://api.anthropic.com");
  assert.equal(upstreamBaseUrl(defaults, "anthropic", { ANTHROPIC_BASE_URL: "http://gateway:8080" }), "http://gateway:8080");
  assert.equal(upstreamBaseUrl(defaults, "openai", { OPENAI_BASE_URL: "https://openrouter.ai/api/v1" }), "https://openrouter.ai/api");
  const config = parseConfig('[proxy.openai]\nbase_url = "https://gw.example/v1"\nkey_command = "pass show openai"\n[proxy.prices]\n"m" = { input = 1, output = 2 }\n', "c.toml").proxy;
  assert.deepEqual(config.openai.key, { command: "pass show openai" });
  assert.equal(upstreamBaseUrl(config, "openai", {}), "https://gw.example");
  assert.deepEqual(config.prices["m"], { input: 1, output: 2 });
});

test("[proxy]: two key sources, a bad URL or an unknown key is one error naming it", () => {
  for (const [text, where] of [
    ['[proxy.anthropic]\nkey_env = "A"\nkey_file = "/k"\n', /proxy\.anthropic/],
    ['[proxy.gemini]\nbase_url = "ftp://x"\n', /proxy\.gemini\.base_url/],
    ["[proxy]\nturbo = true\n", /proxy/],
  ] as const) {
    assert.throws(() => parseConfig(text, "c.toml"), (error: unknown) => isBatonError(error) && where.test(error.message));
  }
});

test("a key is read from a variable, a file or a command, trimmed; none is an error naming the source", async () => {
  const dir = await testTempDir("proxy-key-");
  await writeFile(join(dir, "key"), "sk-from-file\n");
  assert.equal(await readKey({ env: "K" }, { K: " sk-env " }, "anthropic"), "sk-env");
  assert.equal(await readKey({ file: join(dir, "key") }, {}, "anthropic"), "sk-from-file");
  assert.equal(await readKey({ command: "echo sk-from-command" }, { PATH: process.env["PATH"] }, "openai"), "sk-from-command");
  await assert.rejects(readKey({ env: "MISSING" }, {}, "gemini"), (error: unknown) => isBatonError(error) && error.code === "proxy_key_missing" && /MISSING/.test(error.message));
  await assert.rejects(readKey({ command: "false" }, {}, "gemini"), /the command `false` gives none/);
});

test("a key that cannot be a header's value is refused, naming its source: it would end the header it goes in", async () => {
  const dir = await testTempDir("proxy-key-");
  await writeFile(join(dir, "two-lines"), "sk-first\nx-injected: yes\n");
  await assert.rejects(readKey({ file: join(dir, "two-lines") }, {}, "anthropic"), (error: unknown) => isBatonError(error) && /two-lines gives a value with spaces, line breaks/.test(error.message));
  await assert.rejects(readKey({ env: "K" }, { K: "sk one" }, "openai"), /the variable K gives a value with spaces/);
});
