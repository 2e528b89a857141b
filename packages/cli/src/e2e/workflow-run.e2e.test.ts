import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { eventsOfType, git, onlyRunId, readEvents, runBaton, waitFor } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

const PLAN_CHECK_APPROVE = `digraph review {
  goal = "Write the plan and ship it"
  start [shape=Mdiamond]
  plan [label="Plan", prompt="Write PLAN.md for: {{ goal }}"]
  check [shape=parallelogram, script="test -s PLAN.md && echo plan is there"]
  approve [shape=hexagon, label="Ship the plan?"]
  exit [shape=Msquare]
  start -> plan -> check
  check -> approve [condition="outcome=succeeded"]
  check -> plan [condition="outcome=failed"]
  approve -> exit [label="[A] Approve"]
  approve -> plan [label="[R] Revise"]
}
`;

const project = (workflow: string, stages: Record<string, unknown>) => workflowProject("review", workflow, stages);
const checkClosed = assertWellClosed;

test("a workflow walks its stages, pauses at a gate (exit 4), and an approval from the CLI resumes it to its exit", async () => {
  const { repo, script } = await project(PLAN_CHECK_APPROVE, { plan: [{ write: { path: "PLAN.md", content: "1. ship\n" } }, { say: "done" }] });
  const first = await runBaton(repo, ["run", "--workflow", "review", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(first.code, 4, first.stderr + first.stdout);
  assert.match(first.stdout, /baton approve 1/);
  const runId = await onlyRunId(repo);
  let events = await readEvents(repo, runId);
  assert.equal(events.at(-1)?.type, "run.paused");
  assert.deepEqual(
    eventsOfType(events, "stage.started").map((e) => e.data["stage"]),
    ["start", "plan", "check", "approve"],
  );
  assert.equal(eventsOfType(events, "approval.requested")[0]?.data["question"], "Ship the plan?");
  for (const event of events.filter((e) => e.type.startsWith("tool.") || e.type.startsWith("turn."))) assert.equal(event.stage?.id, "plan", `${event.type} names its stage`);
  const committed = eventsOfType(events, "git.committed");
  assert.deepEqual(committed.map((e) => e.data["stage"]), ["plan"]);
  assert.equal(committed[0]?.stage?.id, "plan");
  assert.deepEqual(eventsOfType(events, "checkpoint.saved").map((e) => [e.data["stage"], e.data["next"]]), [["start", "plan"], ["plan", "check"], ["check", "approve"]]);

  const notPaused = await runBaton(repo, ["answer", "1", "Maybe"]);
  assert.equal(notPaused.code, 2);
  assert.match(notPaused.stderr, /"Maybe" is not an option of this gate.*Approve \(A\), Revise \(R\)/);
  assert.equal((await readEvents(repo, runId)).length, events.length, "a bad answer changes nothing");

  const approved = await runBaton(repo, ["approve", "1", "--comment", "looks right"]);
  assert.equal(approved.code, 0, approved.stderr + approved.stdout);
  events = await readEvents(repo, runId);
  assert.equal(events.at(-1)?.type, "run.completed");
  const resolved = eventsOfType(events, "approval.resolved")[0];
  assert.equal(resolved?.data["choice"], "Approve");
  assert.equal(resolved?.data["comment"], "looks right");
  assert.equal(eventsOfType(events, "run.started").at(-1)?.data["resumed"], true);
  assert.deepEqual(eventsOfType(events, "route.selected").map((e) => [e.data["from"], e.data["to"], e.data["reason"]]), [
    ["start", "plan", "unconditional"],
    ["plan", "check", "unconditional"],
    ["check", "approve", "condition"],
    ["approve", "exit", "preferred_label"],
  ]);
  checkClosed(events);
  const again = await runBaton(repo, ["approve", "1"]);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /is succeeded, not waiting at a gate/);
  const branch = eventsOfType(events, "workspace.ready")[0]?.data["branch"] as string;
  assert.match(await git(repo, "log", "--format=%s", branch), /plan: /);
});

test("a failing command routes back to the agent; a loop past max_visits fails the run naming the stage; resume refuses a finished run", async () => {
  const workflow = `digraph loop {
    start [shape=Mdiamond]
    fix [prompt="Fix it", max_visits=2]
    check [shape=parallelogram, script="test -f fixed.txt"]
    exit [shape=Msquare]
    start -> fix -> check
    check -> exit [condition="outcome=succeeded"]
    check -> fix [condition="outcome=failed"]
  }`;
  const { repo, script } = await project(workflow, { fix: [{ say: "trying" }] });
  await writeFile(join(repo, ".baton", "workflows", "loop.dot"), workflow);
  const result = await runBaton(repo, ["run", "Make check pass", "--workflow", "loop", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(result.code, 1, result.stderr + result.stdout);
  const events = await readEvents(repo, await onlyRunId(repo));
  const failed = eventsOfType(events, "run.failed")[0];
  assert.equal(failed?.data["error"] && (failed.data["error"] as { code: string }).code, "max_visits");
  assert.match((failed?.data["error"] as { message: string }).message, /stage "fix" would run a 3rd time, past its max_visits of 2/);
  assert.deepEqual(eventsOfType(events, "stage.failed").map((e) => [e.data["stage"], e.data["visit"]]), [["check", 1], ["check", 2]]);
  assert.equal(eventsOfType(events, "stage.failed")[0]?.data["exit_code"], 1);
  checkClosed(events);
});

test("bad input: an unknown workflow, a malformed one, resume of a plain run: one line, exit 2, no run", async () => {
  const { repo, script } = await project("digraph { start [shape=Mdiamond] a -> }", {});
  const unknown = await runBaton(repo, ["run", "--workflow", "nope", "--script", script, "--yes", "--timeout", "1m"]);
  assert.equal(unknown.code, 2);
  assert.equal(unknown.stderr.trim().split("\n").length, 1, unknown.stderr);
  const malformed = await runBaton(repo, ["run", "--workflow", "review", "--script", script, "--yes", "--timeout", "1m"]);
  assert.equal(malformed.code, 2);
  assert.match(malformed.stderr, /review\.dot:1:/);
  assert.equal(malformed.stderr.trim().split("\n").length, 1, malformed.stderr);
  const plain = await writeFile(join(repo, ".baton", "plain.json"), JSON.stringify([{ say: "hi" }])).then(() => runBaton(repo, ["run", "t", "--script", ".baton/plain.json", "--yes", "--timeout", "1m", "--require-output", "none"]));
  assert.equal(plain.code, 0, plain.stderr);
  const resume = await runBaton(repo, ["resume", "1"]);
  assert.equal(resume.code, 2);
  assert.match(resume.stderr, /run 1 is not a workflow run/);
});

test("agent stages with the same thread_id share one session; each stage's events name that stage; the session ends before the run does", async () => {
  const workflow = `digraph threads {
    start [shape=Mdiamond]
    draft [prompt="Draft it", thread_id="main"]
    polish [prompt="Polish it", thread_id="main"]
    exit [shape=Msquare]
    start -> draft -> polish -> exit
  }`;
  // A shared session is the first stage's agent: its script's turns answer the later stages' prompts.
  const { repo, script } = await project(workflow, { draft: { turns: [[{ write: { path: "draft.txt", content: "d\n" } }], [{ write: { path: "final.txt", content: "f\n" } }]] } });
  await writeFile(join(repo, ".baton", "workflows", "threads.dot"), workflow);
  const result = await runBaton(repo, ["run", "Write it", "--workflow", "threads", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const events = await readEvents(repo, await onlyRunId(repo));
  assert.equal(eventsOfType(events, "agent.started").length, 1, "one session for both stages");
  assert.deepEqual(eventsOfType(events, "turn.started").map((e) => e.stage?.id), ["draft", "polish"]);
  assert.deepEqual(eventsOfType(events, "git.committed").map((e) => [e.data["stage"], (e.data["files"] as { path: string }[]).map((f) => f.path)]), [
    ["draft", ["draft.txt"]],
    ["polish", ["final.txt"]],
  ]);
  const finished = eventsOfType(events, "agent.finished");
  assert.equal(finished.length, 1);
  assert.equal(finished[0]?.stage, undefined, "the shared session ends outside any stage");
  assert.ok(events.indexOf(finished[0]!) < events.findIndex((e) => e.type === "run.completed"));
  checkClosed(events);
});

test("a gate's timeout: resuming after it takes the gate's default choice; without a default the gate fails closed", async () => {
  const gated = (extra: string) => `digraph timed {
    start [shape=Mdiamond]
    ask [shape=hexagon, label="Ship?", timeout="1s"${extra}]
    exit [shape=Msquare]
    fix [shape=parallelogram, script="true"]
    start -> ask
    ask -> exit [label="[S] Ship"]
    ask -> fix [label="[H] Hold"]
    fix -> exit
  }`;
  for (const [extra, code, expect] of [[`, "human.default_choice"="Hold"`, 0, "Hold"], ["", 1, undefined]] as const) {
    const { repo, script } = await project(gated(extra), {});
    await writeFile(join(repo, ".baton", "workflows", "timed.dot"), gated(extra));
    const paused = await runBaton(repo, ["run", "Ship it", "--workflow", "timed", "--script", script, "--yes", "--timeout", "5m"]);
    assert.equal(paused.code, 4, paused.stderr);
    const runId = await onlyRunId(repo);
    // Wait until the recorded request is older than the gate's timeout (the log's own clock decides).
    const requested = Date.parse(eventsOfType(await readEvents(repo, runId), "approval.requested")[0]!.at);
    await waitFor("the gate's timeout to pass", () => Date.now() - requested > 1_000);
    const resumed = await runBaton(repo, ["resume", "1"]);
    assert.equal(resumed.code, code, resumed.stderr + resumed.stdout);
    const events = await readEvents(repo, runId);
    const resolved = eventsOfType(events, "approval.resolved")[0];
    assert.equal(resolved?.data["via"], "timeout");
    assert.equal(resolved?.data["choice"], expect);
    if (expect === undefined) assert.equal((eventsOfType(events, "stage.failed")[0]?.data["error"] as { code: string }).code, "gate_timeout");
    checkClosed(events);
  }
});
