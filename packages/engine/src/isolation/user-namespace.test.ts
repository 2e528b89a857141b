import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseAgentIsolation, isolatedCommand, notIsolatedLog } from "./user-namespace.ts";

const AGENT = { command: "/opt/agent/bin/agent", args: ["--acp"], env: { PATH: "/usr/bin" }, cwd: "/work/tree" };

test("an isolated agent is started by unshare, which execs it with its own arguments, environment and cwd", () => {
  const command = isolatedCommand(AGENT, { kind: "user_namespace", unshare: "/usr/bin/unshare", args: ["--user", "--map-current-user", "--"] });
  assert.deepEqual(command, { command: "/usr/bin/unshare", args: ["--user", "--map-current-user", "--", "/opt/agent/bin/agent", "--acp"], env: AGENT.env, cwd: AGENT.cwd });
  assert.deepEqual(isolatedCommand(AGENT, { kind: "none", reason: "off", chosen: true }), AGENT);
});

test("without unshare, or turned off, the agent is not isolated and the log says why; chosen is info, missing is a warning", async () => {
  assert.deepEqual(await chooseAgentIsolation("none", "/usr/bin:/bin"), { kind: "none", reason: '[isolation] agent = "none"', chosen: true });
  const missing = await chooseAgentIsolation("user_namespace", "/nonexistent");
  assert.equal(missing.kind, "none");
  assert.match(missing.kind === "none" ? missing.reason : "", process.platform === "linux" ? /unshare is not on PATH/ : /Linux/);
  assert.equal(notIsolatedLog({ reason: "x", chosen: false }).level, "warn");
  assert.equal(notIsolatedLog({ reason: "x", chosen: true }).level, "info");
});
