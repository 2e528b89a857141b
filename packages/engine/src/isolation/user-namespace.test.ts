import assert from "node:assert/strict";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

test("a user namespace found is remembered for the process; a probe that failed is made again", { skip: process.platform !== "linux" && "user namespaces are Linux's" }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "baton-unshare-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  /** A PATH whose `unshare` counts its probes and answers with `code`. */
  const fakeUnshare = async (name: string, code: number) => {
    const bin = join(dir, name);
    await mkdir(bin);
    await writeFile(join(bin, "unshare"), `#!/bin/sh\necho probe >> ${join(bin, "probes")}\nexit ${code}\n`, { mode: 0o755 });
    return { path: bin, probes: async () => (await readFile(join(bin, "probes"), "utf8")).split("\n").filter(Boolean).length };
  };
  const working = await fakeUnshare("working", 0);
  assert.equal((await chooseAgentIsolation("user_namespace", working.path)).kind, "user_namespace");
  assert.equal((await chooseAgentIsolation("user_namespace", working.path)).kind, "user_namespace");
  assert.equal(await working.probes(), 1);
  const failing = await fakeUnshare("failing", 1);
  assert.equal((await chooseAgentIsolation("user_namespace", failing.path)).kind, "none");
  assert.equal((await chooseAgentIsolation("user_namespace", failing.path)).kind, "none");
  assert.equal(await failing.probes(), 2);
});
