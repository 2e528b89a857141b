import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { isFinalType, type Envelope } from "@baton/protocol/core";
import { testTempDir } from "@baton/protocol/testing";
import { eventsOfType, git, killProcessesNaming, onlyRunId, readEvents, readEventsText, runBaton, startBaton, waitFor, waitForEvent, waitForOnlyRun, type BatonProcess } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

/** The stages killed in turn, each of another handler than the one before it. */
const HELD = ["plan", "build", "review", "test", "ship"] as const;

/**
 * Holds a stage the first time it runs, never again: it marks that it started (the test kills
 * Baton once the mark is there, so the kill lands inside the stage), then waits for nothing
 * that comes. The mark's path is in the command line, so what is left of it can be ended by name.
 */
const hold = (marks: string, stage: string) => `if [ ! -e ${marks}/${stage} ]; then touch ${marks}/${stage}; while :; do sleep 0.2; done; fi`;

/** Five stages, agent and command in turn; each leaves a draft in the worktree before it holds. */
function pipeline(marks: string): string {
  const command = (stage: string, file: string) => `echo draft > ${stage}-draft.txt; ${hold(marks, stage)}; echo done > ${file}`;
  return `digraph pipeline {
  start [shape=Mdiamond]
  plan [label="Plan", prompt="Plan the release"]
  build [shape=parallelogram, script="${command("build", "build.txt")}"]
  review [prompt="Review the build"]
  test [shape=parallelogram, script="${command("test", "test.txt")}"]
  ship [prompt="Ship it"]
  exit [shape=Msquare]
  start -> plan -> build -> review -> test -> ship -> exit
}
`;
}

function agentScript(marks: string, stage: string) {
  return [{ write: { path: `${stage}-draft.md`, content: "draft\n" } }, { run: hold(marks, stage) }, { write: { path: `${stage}.md`, content: "done\n" } }, { say: `${stage} done` }];
}

/** Kills `baton` with SIGKILL once stage `stage` is inside its hold, and ends what it left running. */
async function killInside(baton: BatonProcess, repo: string, marks: string, stage: string): Promise<void> {
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, `stage.started of ${stage}`, (e) => e.type === "stage.started" && e.data["stage"] === stage);
  await waitFor(`${stage} to hold`, () => existsSync(join(marks, stage)) || !baton.running);
  assert.ok(baton.running, `baton is still running inside ${stage}: ${baton.stderr}`);
  baton.child.kill("SIGKILL");
  const ended = await baton.done;
  assert.equal(ended.signal, "SIGKILL");
  killProcessesNaming(marks);
}

/** Every stage.started is closed by exactly one stage.completed or stage.failed, in log order. */
function assertEachStageClosedOnce(events: readonly Envelope[]): void {
  const open = new Set<string>();
  for (const event of events) {
    const key = JSON.stringify([event.data["stage"], event.data["visit"], event.stage?.branch]);
    if (event.type === "stage.started") {
      assert.ok(!open.has(key), `seq ${event.seq}: ${key} started while it was open`);
      open.add(key);
    } else if (event.type === "stage.completed" || event.type === "stage.failed") {
      assert.ok(open.delete(key), `seq ${event.seq}: ${event.type} of ${key}, which was not open`);
    }
  }
  assert.deepEqual([...open], [], "no stage left open");
}

test("kill -9 inside each of five stages, then baton resume: completed visits never run again, the visit in flight does with its work salvaged, one checkpoint per visit", async (t) => {
  const marks = await testTempDir("cli-wf-resume-marks-");
  t.after(() => killProcessesNaming(marks));
  const stages = { plan: agentScript(marks, "plan"), review: agentScript(marks, "review"), ship: agentScript(marks, "ship") };
  const { repo, script } = await workflowProject("pipeline", pipeline(marks), stages, "cli-wf-resume-");

  await killInside(startBaton(repo, ["run", "Ship the release", "--workflow", "pipeline", "--script", script, "--yes", "--timeout", "10m"]), repo, marks, "plan");
  const runId = await onlyRunId(repo);

  // A killed run is not paused: `approve` refuses it and changes nothing (`show` has ended it as interrupted).
  assert.equal((await runBaton(repo, ["show", "1"])).code, 0);
  const recovered = await readEventsText(repo, runId);
  const approve = await runBaton(repo, ["approve", "1"]);
  assert.equal(approve.code, 2);
  assert.match(approve.stderr, /^baton: run 1 is failed, not waiting at a gate/);
  assert.equal(approve.stderr.trim().split("\n").length, 1);
  assert.equal(await readEventsText(repo, runId), recovered, "approve changed nothing");

  for (const stage of HELD.slice(1)) await killInside(startBaton(repo, ["resume", "1"]), repo, marks, stage);
  const last = await runBaton(repo, ["resume", "1"]);
  assert.equal(last.code, 0, last.stderr + last.stdout);
  assert.match(last.stdout, /\[ship\] /, "the live view names the stage");

  const events = await readEvents(repo, runId);
  assert.deepEqual(
    events.map((e) => e.seq),
    events.map((_, i) => i + 1),
    "seq is continuous across the resumes",
  );
  assertWellClosed(events);
  assert.equal(events.at(-1)?.type, "run.completed");

  // One terminal event per run.started, each before the next run.started.
  const lifecycle = events.filter((e) => e.type === "run.started" || e.type === "run.paused" || isFinalType(e.type)).map((e) => (e.type === "run.started" ? "start" : "end"));
  assert.deepEqual(lifecycle, Array.from({ length: HELD.length + 1 }, () => ["start", "end"]).flat());

  assertEachStageClosedOnce(events);
  const starts = (stage: string) => eventsOfType(events, "stage.started").filter((e) => e.data["stage"] === stage);
  assert.deepEqual(
    ["start", ...HELD, "exit"].map((stage) => [stage, starts(stage).length]),
    [["start", 1], ...HELD.map((stage) => [stage, 2]), ["exit", 1]],
    "only the visit in flight at each kill ran again",
  );
  for (const stage of HELD) {
    const [first, again] = starts(stage) as [Envelope, Envelope];
    assert.deepEqual([first.data["visit"], again.data["visit"]], [1, 1], `${stage}: the same visit runs again`);
    // Recovery ends the visit the dead process was in, before the run's run.failed and before any resume.
    const between = events.filter((e) => (e.seq ?? 0) > (first.seq ?? 0) && (e.seq ?? 0) < (again.seq ?? 0));
    const failed = between.find((e) => e.type === "stage.failed" && e.data["stage"] === stage);
    assert.deepEqual(failed?.data["error"] && { code: (failed.data["error"] as { code: string }).code, class: failed.data["class"], will_retry: failed.data["will_retry"] }, {
      code: "interrupted",
      class: "transient_infra",
      will_retry: false,
    });
    assert.deepEqual(failed?.stage, { id: stage, visit: 1 }, `${stage}: the interrupted end names its visit`);
    const order = between.filter((e) => e === failed || e.type === "run.failed" || e.type === "run.started").map((e) => e.type);
    assert.deepEqual(order, ["stage.failed", "run.failed", "run.started"], `${stage}: closed by recovery, then the run failed, then resumed`);
    const salvage = between.find((e) => e.type === "git.committed" && String(e.data["message"]).startsWith(`salvage of ${stage}:`));
    assert.ok(salvage, `${stage}: what it left uncommitted is kept in a salvage commit`);
    assert.deepEqual(salvage.stage, { id: stage, visit: 1 });
    assert.ok((salvage.data["files"] as Array<{ path: string }>).some((file) => file.path.startsWith(`${stage}-draft.`)), `${stage}: the salvage holds its draft`);
    assert.equal(eventsOfType(events, "stage.completed").filter((e) => e.data["stage"] === stage).length, 1);
  }

  // Exactly one checkpoint per completed visit, across the whole log.
  const checkpoints = eventsOfType(events, "checkpoint.saved").map((e) => `${String(e.data["stage"])}@${String(e.data["visit"])}`);
  const completed = eventsOfType(events, "stage.completed").map((e) => `${String(e.data["stage"])}@${String(e.data["visit"])}`);
  assert.deepEqual(checkpoints, completed);
  assert.deepEqual(checkpoints, ["start@1", ...HELD.map((stage) => `${stage}@1`), "exit@1"]);

  const branch = eventsOfType(events, "workspace.ready")[0]?.data["branch"] as string;
  const files = (await git(repo, "ls-tree", "-r", "--name-only", branch)).trim().split("\n");
  for (const file of ["plan.md", "build.txt", "review.md", "test.txt", "ship.md", "plan-draft.md", "build-draft.txt"]) assert.ok(files.includes(file), `${file} is on the run's branch`);

  // Resume and approve on a finished run: one line, exit 2, nothing changed.
  const finished = await readEventsText(repo, runId);
  for (const args of [
    ["resume", "1"],
    ["approve", "1"],
  ]) {
    const refused = await runBaton(repo, args);
    assert.equal(refused.code, 2, `${args.join(" ")}: ${refused.stderr}`);
    assert.equal(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    assert.match(refused.stderr, /run 1 is succeeded/);
  }
  assert.equal(await readEventsText(repo, runId), finished, "nothing changed");
});
