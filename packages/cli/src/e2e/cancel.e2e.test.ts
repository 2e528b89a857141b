import assert from "node:assert/strict";
import { test } from "node:test";
import { isFinalType, type Envelope } from "@baton/protocol";
import {
  eventsOfType,
  killGroup,
  liveGroupMembers,
  makeRepo,
  readEvents,
  runBaton,
  startBaton,
  waitFor,
  waitForAgentGroup,
  waitForEvent,
  waitForOnlyRun,
  writeScript,
} from "./cli-harness.ts";

const LONG_SCRIPT = [{ say: "waiting for something slow" }, { sleep: 600_000 }, { say: "never said" }];

/** A cancelled run ends its turn (cancelled), then the agent, then the run, once. */
function assertCancelledCleanly(events: readonly Envelope[], by: string): void {
  assert.equal(events.at(-1)?.type, "run.cancelled");
  assert.equal(events.at(-1)?.data["by"], by);
  assert.equal(events.filter((event) => isFinalType(event.type)).length, 1);
  const turns = eventsOfType(events, "turn.completed");
  assert.equal(turns.length, 1, "the turn got its turn.completed");
  assert.equal(turns[0]?.data["stop_reason"], "cancelled");
  assert.equal(eventsOfType(events, "agent.finished").length, 1);
  assert.ok(!eventsOfType(events, "agent.message").some((event) => event.data["text"] === "never said"));
}

/**
 * Nothing of the agent's process group may be left running. A process the kill reached can
 * take a moment to become a zombie, so this waits for the group to empty rather than looking once.
 */
async function assertGroupGone(pgrp: number): Promise<void> {
  await waitFor(`process group ${pgrp} to have no live process`, () => liveGroupMembers(pgrp).length === 0, 10_000).catch(() => {
    assert.deepEqual(liveGroupMembers(pgrp), [], `the agent's process group ${pgrp} is gone`);
  });
}

test("baton cancel from another process ends the run: the runner exits 130, run.cancelled by cli, no agent process left", async (t) => {
  const repo = await makeRepo("cli-cancel-");
  const script = await writeScript(repo, "long.json", LONG_SCRIPT);
  const run = startBaton(repo, ["run", "Wait a long time", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "turn.started", (event) => event.type === "turn.started");
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  assert.ok(liveGroupMembers(agentGroup).length > 0);

  const cancel = await runBaton(repo, ["cancel", "1", "--reason", "not needed"]);

  assert.equal(cancel.code, 0, cancel.stderr);
  assert.match(cancel.stdout, /asked run 1 to cancel/);
  assert.match(cancel.stdout, /run 1 ended: run\.cancelled\n$/);
  const runner = await run.done;
  assert.equal(runner.code, 130, runner.stderr);
  const events = await readEvents(repo, runId);
  assertCancelledCleanly(events, "cli");
  assert.equal(events.at(-1)?.data["reason"], "not needed");
  await assertGroupGone(agentGroup);
  // The runner printed every event it logged, the cancellation included.
  assert.equal(runner.stdout.trimEnd().split("\n").length, events.length);
});

test("Ctrl-C (SIGINT) to baton run cancels the run: exit 130, run.cancelled by user, no agent process left", async (t) => {
  const repo = await makeRepo("cli-sigint-");
  const script = await writeScript(repo, "long.json", LONG_SCRIPT);
  const run = startBaton(repo, ["run", "Wait a long time", "--agent", "fake", "--script", script]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "turn.started", (event) => event.type === "turn.started");
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  await run.waitForStdout("the streamed message", (stdout) => stdout.includes("waiting for something slow"));

  run.child.kill("SIGINT");
  const result = await run.done;

  assert.equal(result.code, 130, result.stderr);
  assert.match(result.stdout, /■ cancelled by user/);
  assertCancelledCleanly(await readEvents(repo, runId), "user");
  await assertGroupGone(agentGroup);
  const show = await runBaton(repo, ["show", "1"]);
  assert.match(show.stdout, /^status: +cancelled by user$/m);
});
