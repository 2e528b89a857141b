import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { AGENT_NAMES, agentBinPath } from "../../scripts/agents/agent-cache.ts";
import { agentLaunch, DEFAULT_MODELS, isolatedEnv } from "./agent-profiles.ts";

const twinUrl = "http://127.0.0.1:4321";

test("every profile points its agent at the twin and names its binary in the cache", async () => {
  for (const agent of AGENT_NAMES) {
    const home = await testTempDir(`profile-${agent}-`);
    const launch = await agentLaunch(agent, { twinUrl, home, model: DEFAULT_MODELS[agent] });
    assert.equal(launch.command, agentBinPath(agent));
    const mentionsTwin = JSON.stringify(launch.env).includes(twinUrl) || existsSync(join(home, ".codex", "config.toml"));
    assert.ok(mentionsTwin, `${agent}: nothing points at the twin`);
  }
});

test("codex gets a config.toml choosing the twin's Responses API, plugins and apps off", async () => {
  const home = await testTempDir("profile-codex-");
  const launch = await agentLaunch("codex", { twinUrl, home, model: "gpt-x" });
  const toml = await readFile(join(home, ".codex", "config.toml"), "utf8");
  assert.equal(launch.env.CODEX_HOME, join(home, ".codex"));
  assert.match(toml, /^model_provider = "twin"$/m);
  assert.match(toml, /^base_url = "http:\/\/127\.0\.0\.1:4321\/v1"$/m);
  assert.match(toml, /^wire_api = "responses"$/m);
  assert.match(toml, /^env_key = "TWIN_API_KEY"$/m);
  assert.match(toml, /^plugins = false$/m);
  assert.ok(launch.env.TWIN_API_KEY);
});

test("codex's home is outside its temp directory, so its sandbox helper is on PATH with an old bubblewrap", async () => {
  const home = await testTempDir("profile-codex-");
  const launch = await agentLaunch("codex", { twinUrl, home, model: "gpt-x" });
  const tmp = launch.env.TMPDIR ?? "";
  assert.ok(existsSync(tmp), "the temp directory exists");
  assert.equal(relative(tmp, launch.env.CODEX_HOME ?? "").startsWith(".."), true, `CODEX_HOME ${launch.env.CODEX_HOME} is inside TMPDIR ${tmp}`);
});

test("opencode asks before edits and commands, and its config folder needs no npm install", async () => {
  const home = await testTempDir("profile-opencode-");
  const launch = await agentLaunch("opencode", { twinUrl, home, model: "m" });
  const config = JSON.parse(launch.env.OPENCODE_CONFIG_CONTENT ?? "{}") as Record<string, unknown>;
  assert.deepEqual(config.permission, { edit: "ask", bash: "ask" });
  assert.equal(config.model, "twin/m");
  assert.deepEqual(launch.args, ["acp", "--pure"]);
  const folder = join(launch.env.XDG_CONFIG_HOME ?? "", "opencode");
  assert.ok(existsSync(join(folder, "node_modules")));
  const lock = JSON.parse(await readFile(join(folder, "package-lock.json"), "utf8")) as { packages: Record<string, { dependencies: object }> };
  assert.deepEqual(Object.keys(lock.packages[""]?.dependencies ?? {}), ["@opencode-ai/plugin"]);
});

test("gemini is not offered client fs; claude is switched to a mode that asks", async () => {
  const gemini = await agentLaunch("gemini", { twinUrl, home: await testTempDir("profile-gemini-"), model: "g" });
  assert.equal(gemini.clientFs, false);
  assert.equal(gemini.env.GOOGLE_GEMINI_BASE_URL, twinUrl);
  const claude = await agentLaunch("claude", { twinUrl, home: await testTempDir("profile-claude-"), model: "c" });
  assert.equal(claude.sessionMode, "default");
  assert.equal(claude.env.ANTHROPIC_BASE_URL, twinUrl);
  assert.equal("IS_SANDBOX" in claude.env, false);
});

test("the base environment carries nothing of the caller's but PATH", () => {
  assert.deepEqual(Object.keys(isolatedEnv("/h")).sort(), ["HOME", "LANG", "LC_ALL", "PATH", "TERM"]);
  assert.equal(isolatedEnv("/h").HOME, "/h");
});
