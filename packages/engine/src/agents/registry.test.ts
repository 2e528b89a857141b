import assert from "node:assert/strict";
import { test } from "node:test";
import { isBatonError } from "../errors.ts";
import { BUILTIN_AGENTS } from "./builtin-agents.ts";
import { buildRegistry, findAgent } from "./registry.ts";

test("a config table over a built-in adds to its pass_env and env and replaces its other fields", () => {
  const registry = buildRegistry(BUILTIN_AGENTS, {
    codex: { pass_env: ["FAKE_API_KEY"], env: { NO_BROWSER: "1" }, model: { via: "session_model" }, args: ["-c", "x=1"] },
  });
  const codex = findAgent(registry, "codex");
  assert.deepEqual(codex.pass_env, ["CODEX_HOME", "OPENAI_API_KEY", "NO_BROWSER", "FAKE_API_KEY"]);
  assert.deepEqual(codex.env, { NO_BROWSER: "1" });
  assert.deepEqual(codex.model, { via: "session_model" });
  assert.deepEqual(codex.args, ["-c", "x=1"]);
  assert.equal(codex.command, "codex-acp");
  assert.equal(codex.package, "@agentclientprotocol/codex-acp");
  // The other built-ins are untouched.
  assert.deepEqual(findAgent(registry, "gemini").env, { GEMINI_CLI_NO_RELAUNCH: "1" });
});

test("a new agent in config joins the registry; without a command it is a config error", () => {
  const registry = buildRegistry(BUILTIN_AGENTS, { mine: { command: "my-agent", args: ["--acp"] } });
  assert.deepEqual([...registry.keys()], ["claude", "opencode", "codex", "gemini", "mine"]);
  assert.equal(findAgent(registry, "mine").command, "my-agent");
  assert.throws(
    () => buildRegistry(BUILTIN_AGENTS, { mine: { args: ["--acp"] } }),
    (error: unknown) => isBatonError(error) && error.code === "bad_config" && /\[agents\.mine\] is not a built-in agent and has no command/.test(error.message),
  );
});

test("an unknown agent name is an error listing the known ones", () => {
  assert.throws(
    () => findAgent(buildRegistry(BUILTIN_AGENTS), "clod"),
    (error: unknown) => isBatonError(error) && error.code === "unknown_agent" && error.toLine() === 'unknown agent "clod": known agents: claude, opencode, codex, gemini',
  );
});
