import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import { eventsOfType, git, killProcessesNaming, makeRepo, onlyRunId, readEvents, readTranscriptText, runBaton, startBaton, waitFor, waitForEvent, waitForOnlyRun } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

const project = (name: string, workflow: string, stages: Record<string, unknown>) => workflowProject(name, workflow, stages, "cli-wf-par-");
const checkClosed = assertWellClosed;

const byBranch = (events: readonly Envelope[], type: string) => eventsOfType(events, type).map((e) => [e.data["branch"], e.data["outcome"]]);

async function branchWorktrees(repo: string): Promise<string[]> {
  return (await readdir(join(repo, ".baton", "worktrees"))).filter((name) => name.includes("--"));
}

const FAN_OF_FOUR = `digraph fan4 {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  fan [shape=component, label="Four ways"]
  docs [prompt="Write the docs"]
  left [prompt="Write the greeting one way"]
  right [prompt="Write the greeting another way"]
  broken [prompt="Try, and give up"]
  gather [shape=tripleoctagon]
  resolve [prompt="Merge by hand what did not merge: {{ context.parallel.conflicted }}"]
  start -> fan -> { docs left right broken } -> gather
  gather -> exit [condition="outcome=succeeded"]
  gather -> resolve [condition="context.parallel.conflicted"]
  resolve -> exit
}
`;

test("a fan-out of 4: one branch fails, two conflict at the fan-in; the merges, events, outcome and results are recorded and a conflict routes to a resolving stage", async () => {
  const { repo, script } = await project("fan4", FAN_OF_FOUR, {
    docs: [{ write: { path: "DOCS.md", content: "docs\n" } }, { say: "wrote the docs" }],
    left: [{ write: { path: "greeting.txt", content: "hello\n" } }, { say: "left" }],
    right: [{ write: { path: "greeting.txt", content: "hi\n" } }, { say: "right" }],
    broken: [{ write: { path: "broken.txt", content: "half done\n" } }, { stop: "refusal" }],
    resolve: [{ say: "resolved" }],
  });
  const result = await runBaton(repo, ["run", "Fan out four ways", "--workflow", "fan4", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const events = await readEvents(repo, await onlyRunId(repo));
  checkClosed(events);

  const started = eventsOfType(events, "parallel.started")[0];
  const base = eventsOfType(events, "checkpoint.saved").find((e) => e.data["stage"] === "start");
  assert.deepEqual(started?.data["branches"], ["docs", "left", "right", "broken"].map((id) => ({ branch: id, target: id })));
  assert.deepEqual([started?.data["join_policy"], started?.data["max_parallel"], started?.data["fan_in"]], ["wait_all", 4, "gather"]);
  const runBranch = eventsOfType(events, "workspace.ready")[0]?.data["branch"] as string;
  assert.equal(started?.data["base_sha"], (await git(repo, "rev-parse", "main")).trim(), "branched from the run's branch at the fan-out's checkpoint");
  assert.equal(base?.data["commit"], undefined, "nothing was committed before the fan-out");

  // Every branch works in a worktree and on a git branch of its own, its stages scoped to it.
  for (const branch of eventsOfType(events, "branch.started")) {
    assert.equal(branch.data["git_branch"], `${runBranch}--${String(branch.data["branch"])}`);
    assert.match(branch.data["path"] as string, new RegExp(`\\.baton/worktrees/1-fan-out-four-ways--${String(branch.data["branch"])}$`));
    assert.deepEqual(branch.stage, { id: "fan", visit: 1, branch: branch.data["branch"] });
  }
  for (const id of ["docs", "left", "right", "broken"]) {
    const inside = events.filter((e) => e.stage?.branch === id && e.stage.id === id);
    assert.ok(inside.some((e) => e.type === "stage.started") && inside.some((e) => e.type === "git.committed"), `branch ${id} ran its stage and committed on its own branch`);
    assert.equal(eventsOfType(inside, "git.committed")[0]?.data["branch"], `${runBranch}--${id}`);
  }
  assert.deepEqual(byBranch(events, "branch.completed").sort(), [["broken", "failed"], ["docs", "succeeded"], ["left", "succeeded"], ["right", "succeeded"]]);
  const joined = eventsOfType(events, "parallel.completed")[0];
  assert.equal(joined?.data["outcome"], "partially_succeeded");
  assert.deepEqual((joined?.data["results"] as { branch: string }[]).map((r) => r.branch), ["docs", "left", "right", "broken"], "results in branch order");
  assert.deepEqual(eventsOfType(events, "route.selected").find((e) => e.data["from"] === "fan")?.data, { from: "fan", to: "gather", reason: "join" });

  // One merge at a time in branch order: docs, left merge; right conflicts with left; broken is not merged.
  const integrations = events.filter((e) => e.type.startsWith("integration."));
  assert.deepEqual(integrations.map((e) => [e.type, e.data["branch"]]), [["integration.completed", "docs"], ["integration.completed", "left"], ["integration.conflicted", "right"]]);
  assert.deepEqual(integrations[2]?.data["files"], ["greeting.txt"]);
  const gather = eventsOfType(events, "stage.completed").find((e) => e.data["stage"] === "gather");
  assert.equal(gather?.data["outcome"], "partially_succeeded");
  const context = eventsOfType(events, "context.updated").find((e) => e.stage?.id === "gather")?.data["updates"] as Record<string, unknown>;
  assert.deepEqual(context["parallel.conflicted"], ["right"]);
  assert.deepEqual(context["parallel.integrated"], ["docs", "left"]);
  const results = context["parallel.results"] as Record<string, unknown>[];
  assert.deepEqual(results.map((r) => [r["branch"], r["outcome"], r["integrated"], r["conflicted_files"]]), [
    ["docs", "succeeded", true, undefined],
    ["left", "succeeded", true, undefined],
    ["right", "succeeded", false, ["greeting.txt"]],
    ["broken", "failed", false, undefined],
  ]);
  assert.ok(results.every((r) => typeof r["head_sha"] === "string"), "each result names its branch's head");
  assert.deepEqual(eventsOfType(events, "route.selected").find((e) => e.data["from"] === "gather")?.data, { from: "gather", to: "resolve", condition: "context.parallel.conflicted", reason: "condition" });
  assert.match(await readTranscriptText(repo, await onlyRunId(repo)), /Merge by hand what did not merge: \[\\"right\\"\]/, "the resolving stage's prompt names the conflicted branch");

  // The run's branch has the two merges; the worktrees are gone; branches with unmerged work are kept.
  assert.deepEqual((await git(repo, "log", "--format=%s", "--merges", runBranch)).trim().split("\n"), ["gather: merge branch left (baton/1-fan-out-four-ways--left)", "gather: merge branch docs (baton/1-fan-out-four-ways--docs)"]);
  assert.deepEqual((await git(repo, "show", `${runBranch}:greeting.txt`)).trim(), "hello");
  assert.deepEqual(await branchWorktrees(repo), []);
  const branches = (await git(repo, "branch", "--list", `${runBranch}--*`, "--format=%(refname:short)")).trim().split("\n").sort();
  assert.deepEqual(branches, [`${runBranch}--broken`, `${runBranch}--right`]);
  const worktree = eventsOfType(events, "workspace.ready")[0]?.data["path"] as string;
  assert.equal((await git(worktree, "status", "--porcelain")).trim(), "", "the run's worktree is left clean: the conflicted merge was aborted");
});

test("first_success: the first branch to succeed cancels the others, whose running stages are closed as cancelled", async () => {
  const workflow = `digraph race {
    start [shape=Mdiamond]
    exit [shape=Msquare]
    race [shape=component, join_policy=first_success]
    slow_a [prompt="Take your time"]
    slow_b [prompt="Take your time too"]
    quick [shape=parallelogram, timeout=60s, script="while [ ! -f ../*--slow_a/started-a.txt ] || [ ! -f ../*--slow_b/started-b.txt ]; do sleep 0.05; done; echo quick > quick.txt"]
    done [shape=tripleoctagon]
    start -> race -> { slow_a slow_b quick } -> done
    done -> exit [condition="outcome=succeeded"]
  }`;
  const { repo, script } = await project("race", workflow, {
    slow_a: [{ write: { path: "started-a.txt", content: "a\n" } }, { sleep: 600_000 }, { say: "never" }],
    slow_b: [{ write: { path: "started-b.txt", content: "b\n" } }, { sleep: 600_000 }, { say: "never" }],
  });
  const result = await runBaton(repo, ["run", "Race", "--workflow", "race", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const events = await readEvents(repo, await onlyRunId(repo));
  checkClosed(events);
  assert.deepEqual(byBranch(events, "branch.completed").sort(), [["quick", "succeeded"], ["slow_a", "cancelled"], ["slow_b", "cancelled"]]);
  assert.equal(eventsOfType(events, "branch.completed")[0]?.data["branch"], "quick", "the winner ended first");
  for (const id of ["slow_a", "slow_b"]) {
    const failed = eventsOfType(events, "stage.failed").find((e) => e.data["stage"] === id);
    assert.equal(failed?.data["class"], "cancelled", `${id}'s running stage was closed as cancelled`);
    assert.equal(failed?.stage?.branch, id);
    const ended = eventsOfType(events, "branch.completed").find((e) => e.data["branch"] === id);
    assert.match((ended?.data["error"] as { message: string }).message, /branch quick succeeded first/);
  }
  assert.equal(eventsOfType(events, "parallel.completed")[0]?.data["outcome"], "succeeded");
  assert.deepEqual(events.filter((e) => e.type.startsWith("integration.")).map((e) => [e.type, e.data["branch"]]), [["integration.completed", "quick"]]);
  assert.equal(eventsOfType(events, "stage.completed").find((e) => e.data["stage"] === "done")?.data["outcome"], "succeeded", "cancelled branches do not count against the winner");
  const runBranch = eventsOfType(events, "workspace.ready")[0]?.data["branch"] as string;
  assert.equal((await git(repo, "show", `${runBranch}:quick.txt`)).trim(), "quick");
  assert.deepEqual(await branchWorktrees(repo), []);
});

test("max_parallel=1 runs the branches one at a time, in branch order", async () => {
  const workflow = `digraph one {
    start [shape=Mdiamond]
    exit [shape=Msquare]
    fan [shape=component, max_parallel=1]
    a [shape=parallelogram, script="echo a > a.txt"]
    b [shape=parallelogram, script="echo b > b.txt"]
    c [shape=parallelogram, script="echo c > c.txt"]
    join [shape=tripleoctagon]
    start -> fan -> { a b c } -> join -> exit
  }`;
  const { repo, script } = await project("one", workflow, {});
  const result = await runBaton(repo, ["run", "One at a time", "--workflow", "one", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const events = await readEvents(repo, await onlyRunId(repo));
  checkClosed(events);
  assert.equal(eventsOfType(events, "parallel.started")[0]?.data["max_parallel"], 1);
  const order = events.filter((e) => e.type === "branch.started" || e.type === "branch.completed").map((e) => `${e.type === "branch.started" ? "+" : "-"}${String(e.data["branch"])}`);
  assert.deepEqual(order, ["+a", "-a", "+b", "-b", "+c", "-c"]);
  // Nothing of one branch happens while another is open.
  let open: string | undefined;
  for (const event of events) {
    if (event.type === "branch.started") open = event.data["branch"] as string;
    else if (event.type === "branch.completed") open = undefined;
    else if (event.stage?.branch !== undefined) assert.equal(event.stage.branch, open, `${event.type} of branch ${event.stage.branch} while ${open ?? "none"} is open`);
  }
  assert.equal(eventsOfType(events, "stage.completed").find((e) => e.data["stage"] === "join")?.data["outcome"], "succeeded");
});

test("foreach runs its subgraph once per item of a list an earlier stage wrote, each in its own worktree, the item in prompts and commands, all merged", async () => {
  const workflow = `digraph each {
    start [shape=Mdiamond]
    exit [shape=Msquare]
    plan [prompt="List the subtasks"]
    each [type=foreach, over="context.subtasks", max_parallel=2]
    note [prompt="Work on {{ context.item }} (item {{ context.item_index }})"]
    build [shape=parallelogram, script="printf '%s' \\"$BATON_CTX_ITEM\\" > \\"item-$BATON_CTX_ITEM_INDEX.txt\\""]
    done [shape=tripleoctagon]
    start -> plan -> each -> note -> build -> done -> exit
  }`;
  const { repo, script } = await project("each", workflow, {
    plan: [{ say: 'Three subtasks: {"context_updates": {"subtasks": ["alpha", {"name": "beta"}, "gamma"]}}' }],
    note: [{ say: "noted" }],
  });
  const result = await runBaton(repo, ["run", "Each subtask", "--workflow", "each", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(result.code, 0, result.stderr + result.stdout);
  const runId = await onlyRunId(repo);
  const events = await readEvents(repo, runId);
  checkClosed(events);
  const started = eventsOfType(events, "parallel.started")[0];
  assert.deepEqual(started?.data["branches"], [
    { branch: "item-0", target: "note", item: "alpha" },
    { branch: "item-1", target: "note", item: { name: "beta" } },
    { branch: "item-2", target: "note", item: "gamma" },
  ]);
  assert.equal(started?.data["max_parallel"], 2);
  // At most two branches are open at once.
  let open = 0;
  for (const event of events) {
    if (event.type === "branch.started") open += 1;
    if (event.type === "branch.completed") open -= 1;
    assert.ok(open <= 2, "max_parallel=2 holds");
  }
  const transcript = await readTranscriptText(repo, runId);
  for (const expected of ["Work on alpha (item 0)", 'Work on {\\"name\\":\\"beta\\"} (item 1)', "Work on gamma (item 2)"]) assert.ok(transcript.includes(expected), `a prompt says ${expected}`);
  assert.deepEqual(events.filter((e) => e.type === "integration.completed").map((e) => e.data["branch"]), ["item-0", "item-1", "item-2"]);
  const runBranch = eventsOfType(events, "workspace.ready")[0]?.data["branch"] as string;
  assert.equal(await git(repo, "show", `${runBranch}:item-0.txt`), "alpha");
  assert.equal(await git(repo, "show", `${runBranch}:item-1.txt`), '{"name":"beta"}');
  assert.equal(await git(repo, "show", `${runBranch}:item-2.txt`), "gamma");
  assert.equal(eventsOfType(events, "stage.completed").find((e) => e.data["stage"] === "done")?.data["outcome"], "succeeded");
  assert.deepEqual(await branchWorktrees(repo), []);
  assert.equal((await git(repo, "branch", "--list", `${runBranch}--*`)).trim(), "", "every branch was merged, so none is kept");
});

test("foreach over a list nobody wrote fails the run naming the key; over an empty list it is skipped and its fan-in merges nothing", async () => {
  const workflow = `digraph each {
    start [shape=Mdiamond]
    exit [shape=Msquare]
    plan [prompt="List the subtasks"]
    each [type=foreach, over="context.subtasks"]
    build [shape=parallelogram, script="true"]
    done [shape=tripleoctagon]
    start -> plan -> each -> build -> done -> exit
  }`;
  const missing = await project("each", workflow, { plan: [{ say: "No list today." }] });
  const failed = await runBaton(missing.repo, ["run", "Each", "--workflow", "each", "--script", missing.script, "--yes", "--timeout", "5m"]);
  assert.equal(failed.code, 1, failed.stderr + failed.stdout);
  const failedEvents = await readEvents(missing.repo, await onlyRunId(missing.repo));
  checkClosed(failedEvents);
  const refused = eventsOfType(failedEvents, "stage.failed").find((e) => e.data["stage"] === "each");
  assert.equal((refused?.data["error"] as { code?: string } | undefined)?.code, "foreach_list_missing");
  assert.match(JSON.stringify(eventsOfType(failedEvents, "run.failed")[0]?.data["error"]), /context\.subtasks, which no stage has set/);

  const empty = await project("each", workflow, { plan: [{ say: '{"context_updates": {"subtasks": []}}' }] });
  const skipped = await runBaton(empty.repo, ["run", "Each", "--workflow", "each", "--script", empty.script, "--yes", "--timeout", "5m"]);
  assert.equal(skipped.code, 0, skipped.stderr + skipped.stdout);
  const events = await readEvents(empty.repo, await onlyRunId(empty.repo));
  checkClosed(events);
  assert.deepEqual(eventsOfType(events, "parallel.completed")[0]?.data, { stage: "each", outcome: "skipped", results: [] });
  assert.deepEqual(eventsOfType(events, "stage.completed").filter((e) => e.data["stage"] === "each" || e.data["stage"] === "done").map((e) => e.data["outcome"]), ["skipped", "skipped"]);
});

test("kill -9 during a fan-out, then baton resume: the branch that had ended is not run again, the other runs again in its worktree with its uncommitted work saved", async (t) => {
  const repo = await makeRepo("cli-wf-par-kill-");
  const go = join(repo, ".git", "go-on");
  const workflow = `digraph crash {
    start [shape=Mdiamond]
    exit [shape=Msquare]
    fan [shape=component]
    quick [shape=parallelogram, script="echo quick > quick.txt"]
    stuck [shape=parallelogram, timeout=120s, script="echo partial > partial.txt; while [ ! -f '${go}' ]; do sleep 0.05; done; echo done > stuck.txt"]
    gather [shape=tripleoctagon]
    start -> fan -> { quick stuck } -> gather -> exit
  }`;
  await mkdir(join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(repo, ".baton", "workflows", "crash.dot"), workflow);
  await writeFile(join(repo, ".baton", "stages.json"), JSON.stringify({ stages: {} }));
  t.after(() => killProcessesNaming(go));
  const first = startBaton(repo, ["run", "Crash in a fan-out", "--workflow", "crash", "--script", ".baton/stages.json", "--yes", "--timeout", "5m"]);
  t.after(() => first.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the quick branch's end", (e) => e.type === "branch.completed" && e.data["branch"] === "quick");
  const stuckTree = join(repo, ".baton", "worktrees", "1-crash-in-a-fan-out--stuck");
  await waitFor("the stuck branch's partial work", () => existsSync(join(stuckTree, "partial.txt")));
  first.child.kill("SIGKILL");
  await first.done;
  killProcessesNaming(go);

  await writeFile(go, "");
  const resumed = await runBaton(repo, ["resume", "1"]);
  assert.equal(resumed.code, 0, resumed.stderr + resumed.stdout);
  const events = await readEvents(repo, runId);
  checkClosed(events);
  assert.deepEqual(eventsOfType(events, "run.started").map((e) => e.data["resumed"]), [false, true]);
  const fan_outs = eventsOfType(events, "parallel.started");
  assert.equal(fan_outs.length, 2);
  assert.deepEqual(fan_outs[1]?.data["reused"], ["quick"]);
  assert.equal(fan_outs[1]?.data["base_sha"], fan_outs[0]?.data["base_sha"]);
  assert.equal(eventsOfType(events, "stage.started").filter((e) => e.data["stage"] === "quick").length, 1, "the branch that had ended is not run again");
  assert.deepEqual(eventsOfType(events, "branch.started").map((e) => e.data["branch"]).sort(), ["quick", "stuck", "stuck"]);
  const interrupted = eventsOfType(events, "stage.failed").filter((e) => (e.data["error"] as { code: string }).code === "interrupted");
  assert.deepEqual(interrupted.map((e) => [e.data["stage"], e.stage?.branch]).sort(), [["fan", undefined], ["stuck", "stuck"]]);
  const salvage = eventsOfType(events, "git.committed").find((e) => String(e.data["message"]).startsWith("salvage"));
  assert.equal(salvage?.stage?.branch, "stuck", "the crashed branch's uncommitted work was committed on its branch first");
  assert.deepEqual(salvage?.data["files"], [{ path: "partial.txt", change: "added" }]);
  // Recovery closed the crashed fan-out's start (its branches cancelled as interrupted); the resumed one completed.
  const completed = eventsOfType(events, "parallel.completed");
  assert.equal(completed.length, 2);
  assert.ok(events.indexOf(completed[0]!) < events.indexOf(eventsOfType(events, "run.failed")[0]!), "the crashed fan-out is closed before run.failed");
  assert.equal(completed[1]?.data["outcome"], "succeeded");
  assert.deepEqual(byBranch(events, "integration.completed"), [["quick", undefined], ["stuck", undefined]]);
  const runBranch = eventsOfType(events, "workspace.ready")[0]?.data["branch"] as string;
  for (const [file, text] of [["quick.txt", "quick"], ["partial.txt", "partial"], ["stuck.txt", "done"]]) assert.equal((await git(repo, "show", `${runBranch}:${file}`)).trim(), text);
  assert.equal(eventsOfType(events, "run.completed")[0]?.data["status"], "succeeded");
});

test("baton clean removes the worktrees of a fan-out that never reached its fan-in, and keeps a branch's unmerged commits", async () => {
  const workflow = `digraph stuck {
    start [shape=Mdiamond]
    exit [shape=Msquare]
    fan [shape=component]
    quick [shape=parallelogram, script="echo quick > quick.txt"]
    slow [shape=parallelogram, script="sleep 600"]
    join [shape=tripleoctagon]
    start -> fan -> { quick slow } -> join -> exit
  }`;
  const { repo, script } = await project("stuck", workflow, {});
  const run = startBaton(repo, ["run", "Never joins", "--workflow", "stuck", "--script", script, "--yes", "--timeout", "5m"]);
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "quick's branch.completed", (e) => e.type === "branch.completed" && e.data["branch"] === "quick");
  await waitForEvent(repo, runId, "slow's command started", (e) => e.type === "stage.started" && e.data["stage"] === "slow");
  const cancelled = await runBaton(repo, ["cancel", "1"]);
  assert.equal(cancelled.code, 0, cancelled.stderr);
  assert.equal((await run.done).code, 130);
  const events = await readEvents(repo, runId);
  checkClosed(events);
  assert.equal(eventsOfType(events, "stage.started").some((e) => e.data["stage"] === "join"), false, "the fan-in never ran");
  assert.deepEqual((await branchWorktrees(repo)).length, 2, "both branches' worktrees are left");
  const quickBranch = eventsOfType(events, "branch.started").find((e) => e.data["branch"] === "quick")?.data["git_branch"] as string;

  const cleaned = await runBaton(repo, ["clean"]);
  assert.equal(cleaned.code, 0, cleaned.stderr);
  assert.deepEqual(await branchWorktrees(repo), [], "every branch worktree is gone");
  assert.match(cleaned.stdout, /branch quick of fan@1: removed .*--quick, kept branch .*--quick \(1 commit\(s\) not in the run's branch\)/);
  assert.match(cleaned.stdout, /branch slow of fan@1: removed .*--slow, deleted branch .*--slow/);
  assert.equal(await git(repo, "show", `${quickBranch}:quick.txt`), "quick\n", "the branch's commit is kept");
  assert.doesNotMatch(await git(repo, "worktree", "list"), /--(quick|slow)/);
});
