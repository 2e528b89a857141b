import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { foldRun, type Envelope } from "@baton/protocol/core";
import { eventsOfType, git, readEvents, runBaton, runIds } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

/** A pipeline whose last check fails: the run fails after four stages with a checkpoint each. */
const SHIP = (check: string) => `digraph ship {
  start [shape=Mdiamond]
  plan [label="Plan", prompt="Plan the release"]
  build [shape=parallelogram, script="echo \\"built for $BATON_CTX_TICKET\\" > build.txt"]
  review [prompt="Review the build"]
  check [shape=parallelogram, script="${check}"]
  exit [shape=Msquare]
  start -> plan -> build -> review -> check -> exit
}
`;

const STAGES = {
  plan: [{ write: { path: "plan.md", content: "1. build\n" } }, { say: 'Planned. {"context_updates": {"ticket": "T-7"}}' }],
  review: [{ write: { path: "review.md", content: "looks fine\n" } }, { say: "Reviewed." }],
};

async function failedShipRun(): Promise<{ repo: string; originId: string; events: Envelope[] }> {
  const { repo, script } = await workflowProject("ship", SHIP("test -f approved.txt"), STAGES, "cli-wf-fork-");
  const run = await runBaton(repo, ["run", "Ship the release", "--workflow", "ship", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(run.code, 1, run.stderr + run.stdout);
  assert.match(run.stdout, /baton resume 1 .*· baton fork 1 --at STAGE/, "a failed run names both ways on");
  const [originId] = await runIds(repo);
  return { repo, originId: originId as string, events: await readEvents(repo, originId as string) };
}

test("fork from a middle stage of a failed run: a new run on a branch at that checkpoint's commit, its context, only the later stages", async () => {
  const { repo, originId, events: origin } = await failedShipRun();
  const buildCheckpoint = eventsOfType(origin, "checkpoint.saved").find((e) => e.data["stage"] === "build");
  const commit = buildCheckpoint?.data["commit"] as string;
  assert.match(commit, /^[0-9a-f]{40}$/, "build committed build.txt");
  const reviewCommit = eventsOfType(origin, "checkpoint.saved").find((e) => e.data["stage"] === "review")?.data["commit"] as string;

  // The check is fixed in the workflow file; the fork reads the file again and runs it as it is now.
  await writeFile(join(repo, ".baton", "workflows", "ship.dot"), SHIP('test \\"$BATON_CTX_TICKET\\" = T-7 && grep -q T-7 build.txt'));
  const fork = await runBaton(repo, ["fork", "1", "--at", "build"]);
  assert.equal(fork.code, 0, fork.stderr + fork.stdout);
  const ids = await runIds(repo);
  assert.equal(ids.length, 2);
  const forkId = ids[1] as string;
  const events = await readEvents(repo, forkId);

  const created = eventsOfType(events, "run.created")[0];
  assert.equal(created?.data["number"], 2);
  assert.equal(created?.data["task"], "Ship the release");
  assert.deepEqual(created?.data["origin"], { run: originId, number: 1, stage: "build", visit: 1, commit });
  assert.deepEqual(
    eventsOfType(events, "stage.started").map((e) => e.data["stage"]),
    ["review", "check", "exit"],
    "only the stages after the checkpoint run",
  );
  assert.equal(events.at(-1)?.type, "run.completed");
  const ready = eventsOfType(events, "workspace.ready")[0];
  assert.equal(ready?.data["base_sha"], commit, "the new branch starts at the checkpoint's commit");
  const branch = ready?.data["branch"] as string;
  assert.match(branch, /^baton\/2-/);
  await git(repo, "merge-base", "--is-ancestor", commit, branch);
  await assert.rejects(git(repo, "merge-base", "--is-ancestor", reviewCommit, branch), "the origin's later commits are not on the fork's branch");
  const inherited = eventsOfType(events, "checkpoint.saved")[0];
  assert.deepEqual([inherited?.data["stage"], inherited?.data["next"], inherited?.data["commit"]], ["build", "review", commit], "the fork's log starts at its checkpoint");
  assert.equal(foldRun(events).workflow.context["ticket"], "T-7", "the context of the checkpoint");
  assertWellClosed(events);
  assert.match(fork.stdout, /\[review\] /, "the live view names the stage");

  // The origin is as it was.
  assert.deepEqual(await readEvents(repo, originId), origin);
});

test("bad fork input: an unknown stage, a visit with no checkpoint, a plain run, a workflow file gone: one line, exit 2, no new run", async () => {
  const { repo, originId, events: origin } = await failedShipRun();
  await writeFile(join(repo, ".baton", "plain.json"), JSON.stringify([{ say: "hi" }]));
  const plain = await runBaton(repo, ["run", "t", "--script", ".baton/plain.json", "--yes", "--timeout", "1m", "--require-output", "none"]);
  assert.equal(plain.code, 0, plain.stderr);
  const before = await runIds(repo);
  const cases: Array<[string[], RegExp]> = [
    [["fork", "1", "--at", "deploy"], /run 1 has no checkpoint of stage "deploy": fork at one of start@1, plan@1, build@1, review@1/],
    [["fork", "1", "--at", "build@2"], /run 1 has no checkpoint of visit 2 of stage "build"/],
    [["fork", "1", "--at", "check"], /run 1 has no checkpoint of stage "check"/],
    [["fork", "1", "--at", "build@x"], /--at build@x names no checkpoint/],
    [["fork", "2", "--at", "plan"], /run 2 is not a workflow run/],
    [["fork", "1"], /--at/],
  ];
  for (const [args, message] of cases) {
    const result = await runBaton(repo, args);
    assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split("\n").length, 1, result.stderr);
    assert.match(result.stderr, message);
  }
  await rm(join(repo, ".baton", "workflows", "ship.dot"));
  const gone = await runBaton(repo, ["fork", "1", "--at", "plan"]);
  assert.equal(gone.code, 2, gone.stderr);
  assert.match(gone.stderr, /^baton: run 1's workflow file \.baton\/workflows\/ship\.dot is gone: restore it/);
  assert.deepEqual(await runIds(repo), before, "no run was created");
  assert.deepEqual(await readEvents(repo, originId), origin, "the origin is unchanged");
  assert.doesNotMatch(await git(repo, "branch", "--list"), /baton\/3-/, "no branch was made");
});
