import assert from "node:assert/strict";
import { test } from "node:test";
import { isFinalType } from "@baton/protocol";
import {
  fakeAgentsPlaying,
  killProcessesUnder,
  liveProcessesUnder,
  makeRepo,
  readEvents,
  readTranscriptText,
  runBaton,
  startBaton,
  waitFor,
  waitForEvent,
  waitForOnlyRun,
  writeScript,
  type ProcessInfo,
} from "./cli-harness.ts";

/** A killed process can take a moment to go; a survivor of the run stays for minutes. */
const GONE_TIMEOUT_MS = 10_000;

/** Waits for a `sleep 300` the agent's command started, working in the run's worktree. */
async function waitForCommand(repo: string): Promise<ProcessInfo> {
  let found: ProcessInfo | undefined;
  await waitFor("the agent's command to run", () => (found = liveProcessesUnder(repo).find((info) => info.cmdline === "sleep 300")) !== undefined);
  return found as ProcessInfo;
}

/** Nothing of the run may be left: no process works in the repository or its worktree. */
async function assertNothingLeft(repo: string): Promise<void> {
  await waitFor("every process of the run to end", () => liveProcessesUnder(repo).length === 0, GONE_TIMEOUT_MS).catch(() => {
    assert.deepEqual(liveProcessesUnder(repo), [], "no process of the run is left");
  });
}

test("kill -9 of the agent mid tool call: the command it ran in a session of its own dies with it", async (t) => {
  const repo = await makeRepo("cli-agent-kill9-");
  t.after(() => killProcessesUnder(repo));
  // The fake agent runs each command in a new session (as real agents do): the agent's process group does not hold it.
  const script = await writeScript(repo, "long-tool.json", [{ say: "building" }, { run: "sleep 300" }]);
  const run = startBaton(repo, ["run", "Build it", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  const command = await waitForCommand(repo);
  const [agent] = fakeAgentsPlaying(script);
  assert.ok(agent !== undefined);
  assert.notEqual(command.pgrp, agent.pgrp, "the command is not in the agent's process group");

  process.kill(agent.pid, "SIGKILL");
  const result = await run.done;

  assert.equal(result.code, 1, result.stderr);
  const failed = await waitForEvent(repo, runId, "run.failed", (event) => event.type === "run.failed");
  assert.equal((failed.data["error"] as { code: string }).code, "agent_exited");
  await assertNothingLeft(repo);
});

test("a cancelled run leaves no process behind, not even one its command moved out of every group", async (t) => {
  const repo = await makeRepo("cli-cancel-tree-");
  t.after(() => killProcessesUnder(repo));
  // `setsid` takes the sleep out of the command's group, which the fake agent kills on cancel.
  const script = await writeScript(repo, "escape.json", [{ run: "setsid sleep 300 >/dev/null 2>&1 & wait" }]);
  const run = startBaton(repo, ["run", "Start a daemon", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForCommand(repo);

  run.child.kill("SIGTERM");
  const result = await run.done;

  assert.equal(result.code, 130, result.stderr);
  await waitForEvent(repo, runId, "run.cancelled", (event) => event.type === "run.cancelled");
  await assertNothingLeft(repo);
});

test("Baton leaving at once on a second Ctrl-C takes the agent and everything it started with it", async (t) => {
  const repo = await makeRepo("cli-exit-tree-");
  t.after(() => killProcessesUnder(repo));
  // A daemon the command leaves running, then an agent that does not answer a cancel: the first
  // Ctrl-C waits for it, the second makes Baton leave at once.
  const script = await writeScript(repo, "daemon.json", [{ run: "setsid sleep 300 >/dev/null 2>&1 &" }, { hang: 600_000 }]);
  const run = startBaton(repo, ["run", "Start a daemon", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForCommand(repo);

  run.child.kill("SIGINT");
  await waitFor("Baton to ask the agent to cancel", async () => (await readTranscriptText(repo, runId).catch(() => "")).includes('"session/cancel"'));
  run.child.kill("SIGINT");
  const result = await run.done;

  assert.equal(result.code, 130, result.stderr);
  assert.ok(!(await readEvents(repo, runId)).some((event) => isFinalType(event.type)), "Baton left before the run could end");
  await assertNothingLeft(repo);
  // The next command ends the run it left.
  assert.equal((await runBaton(repo, ["runs"])).code, 0);
  assert.equal((await readEvents(repo, runId)).at(-1)?.type, "run.failed");
});
