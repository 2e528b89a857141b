import assert from "node:assert/strict";
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { isBatonError } from "../errors.ts";
import { agentEntrySchema, type AgentEntryInput } from "./agent-entry.ts";
import { prepareAgentLaunch } from "./agent-launch.ts";
import { agentStatuses } from "./agent-status.ts";
import { buildRegistry } from "./registry.ts";

/** A folder with an executable `name` holding `text`. */
async function binDir(prefix: string, files: Record<string, string>): Promise<string> {
  const dir = await testTempDir(prefix);
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(dir, name), text);
    await chmod(join(dir, name), 0o755);
  }
  return dir;
}

const entry = (input: AgentEntryInput) => agentEntrySchema.parse(input);

test("--model by environment sets the entry's variable; the command is found on BATON_AGENT_PATH", async () => {
  const bin = await binDir("launch-env-", { "my-agent": "#!/bin/sh\nexit 0\n" });
  const launch = await prepareAgentLaunch("mine", entry({ command: "my-agent", args: ["--acp"], model: { via: "env", name: "MY_MODEL" } }), {
    env: { PATH: "/usr/bin:/bin", BATON_AGENT_PATH: bin, MY_MODEL: "inherited", OPENAI_API_KEY: "sk" },
    cwd: bin,
    model: "big-model",
    extraArgs: ["--x"],
  });
  assert.equal(launch.command, join(bin, "my-agent"));
  assert.deepEqual(launch.args, ["--acp", "--x"]);
  assert.deepEqual(launch.env, { PATH: `${bin}:/usr/bin:/bin`, MY_MODEL: "big-model" });
  assert.deepEqual(launch.session, { model: "big-model", modelChoice: { via: "env", name: "MY_MODEL" }, clientFs: true });
});

test("--model for an agent that offers no way to take one is an error before anything starts", async () => {
  await assert.rejects(
    prepareAgentLaunch("mine", entry({ command: "/bin/sh" }), { env: { PATH: "/usr/bin:/bin" }, cwd: "/", model: "m" }),
    (error: unknown) => isBatonError(error) && error.code === "model_unsupported" && /agent "mine" offers no way to choose its model/.test(error.message),
  );
});

test("a missing command is agent_not_installed, naming the npm package to install", async () => {
  await assert.rejects(
    prepareAgentLaunch("claude", entry({ command: "claude-agent-acp-not-here", package: "@agentclientprotocol/claude-agent-acp" }), { env: { PATH: "/usr/bin:/bin" }, cwd: "/" }),
    (error: unknown) =>
      isBatonError(error) &&
      error.code === "agent_not_installed" &&
      error.toLine().includes("npm install -g @agentclientprotocol/claude-agent-acp") &&
      error.toLine().includes("BATON_AGENT_PATH"),
  );
});

test("a node script is not installed when its interpreter is not on the agent's PATH", async () => {
  const bin = await binDir("launch-shebang-", { "script-agent": "#!/usr/bin/env nodejs-that-is-not-here\nconsole.log(1)\n" });
  await assert.rejects(
    prepareAgentLaunch("s", entry({ command: "script-agent" }), { env: { PATH: bin }, cwd: bin }),
    (error: unknown) => isBatonError(error) && error.code === "agent_not_installed" && /needs nodejs-that-is-not-here/.test(error.message),
  );
});

test("agent statuses: installed with the version it prints, or not installed with the reason", async () => {
  const bin = await binDir("status-", { "ok-agent": "#!/bin/sh\necho \"ok-agent version 1.2.3 (build 7)\"\n", "failing-agent": "#!/bin/sh\nexit 3\n" });
  const registry = buildRegistry({
    ok: { command: "ok-agent", pass_env: ["OK_*"], model: { via: "env", name: "OK_MODEL" } },
    broken: { command: "failing-agent" },
    gone: { command: "gone-agent", package: "gone-pkg" },
  });
  const statuses = await agentStatuses(registry, { PATH: "/usr/bin:/bin", BATON_AGENT_PATH: bin }, bin);
  const byName = Object.fromEntries(statuses.map((s) => [s.name, s]));
  assert.equal(byName["ok"]?.installed, true);
  assert.equal(byName["ok"]?.version, "1.2.3");
  assert.deepEqual(byName["ok"]?.env, ["OK_*", "OK_MODEL"]);
  assert.equal(byName["broken"]?.installed, true);
  assert.equal(byName["broken"]?.version, undefined, "a failing --version gives no version");
  assert.equal(byName["gone"]?.installed, false);
  assert.match(byName["gone"]?.reason ?? "", /gone-agent is not on the agent's PATH/);
  assert.equal(byName["gone"]?.package, "gone-pkg");
});
