import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { eventsOfType, git, onlyRunId, readEvents, runBaton, waitForEvent, waitForOnlyRun } from "./cli-harness.ts";
import { assertWellClosed, workflowProject } from "./workflow-harness.ts";

const SHIP = `digraph ship {
  goal = "Build both halves and ship them"
  start [shape=Mdiamond]
  exit [shape=Msquare]
  fan [shape=component]
  a [prompt="Build A"]
  b [prompt="Build B"]
  gather [shape=tripleoctagon]
  check [type=validate, script="test -f fixed.txt"]
  fix [prompt="Fix what failed: {{ context.validation.output }}", max_visits=2]
  approve [shape=hexagon, label="Merge it?"]
  land [type=merge, strategy=squash]
  start -> fan -> { a b } -> gather -> check
  check -> approve [condition="outcome=succeeded"]
  check -> fix [condition="outcome=failed"]
  fix -> check
  approve -> land [label="[A] Approve"]
  approve -> exit [label="[R] Reject"]
  land -> exit
}
`;

test("a workflow sets up every fresh worktree, validates as a stage (fails, is fixed), captures artifacts, and a merge stage behind an approved gate lands the work in the base", async () => {
  const { repo, script } = await workflowProject("ship", SHIP, {
    a: [{ write: { path: "a.txt", content: "a\n" } }],
    b: [{ write: { path: "b.txt", content: "b\n" } }],
    fix: [{ write: { path: "fixed.txt", content: "fixed\n" } }, { write: { path: "report/shot.png", content: "not really a png\n" } }],
  });
  await writeFile(join(repo, ".baton", "config.toml"), `[setup]\ncommands = ["touch setup-marker"]\n\n[validation]\ncommands = ["test -f a.txt && test -f b.txt"]\n\n[artifacts]\ninclude = ["report/*.png"]\n`);

  const first = await runBaton(repo, ["run", "--workflow", "ship", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(first.code, 4, first.stderr + first.stdout);
  const runId = await onlyRunId(repo);
  let events = await readEvents(repo, runId);
  const setups = eventsOfType(events, "setup.completed").map((e) => e.data["branch"] ?? "run");
  assert.deepEqual(setups.sort(), ["a", "b", "run"], "the run's worktree and each branch's are set up");
  const types = events.map((e) => e.type);
  assert.ok(types.indexOf("setup.completed") < types.indexOf("stage.started"), "the run's setup comes before its first stage");
  const validations = eventsOfType(events, "validation.completed").map((e) => `${String(e.data["command"])}:${String(e.data["passed"])}:${String(e.stage?.id)}`);
  assert.deepEqual(validations, ["test -f a.txt && test -f b.txt:true:check", "test -f fixed.txt:false:check", "test -f a.txt && test -f b.txt:true:check", "test -f fixed.txt:true:check"]);
  const artifact = eventsOfType(events, "artifact.captured")[0];
  assert.equal(artifact?.data["path"], "report/shot.png");
  assert.equal(artifact?.data["media_type"], "image/png");
  assert.equal(artifact?.stage?.id, "fix");
  const stored = await readFile(join(repo, ".baton", "runs", runId, "artifacts", String(artifact?.data["sha256"])), "utf8");
  assert.equal(stored, "not really a png\n");

  const approved = await runBaton(repo, ["approve", "1", "--json"]);
  assert.equal(approved.code, 0, approved.stderr + approved.stdout);
  events = await readEvents(repo, runId);
  assertWellClosed(events);
  const merged = eventsOfType(events, "git.merged")[0];
  assert.equal(merged?.data["strategy"], "squash");
  assert.equal(merged?.stage?.id, "land");
  assert.equal((await git(repo, "rev-parse", "main")).trim(), merged?.data["sha"]);
  for (const file of ["a.txt", "b.txt", "fixed.txt"]) assert.ok((await git(repo, "ls-tree", "--name-only", "main", file)).includes(file), `${file} is in main`);
  assert.equal(await readFile(join(repo, "fixed.txt"), "utf8"), "fixed\n", "the user's checkout of main shows the merge");

  const listed = await runBaton(repo, ["artifacts", "1"]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, /report\/shot\.png\s+17 B\s+image\/png\s+fix\s+\S+artifacts\/[0-9a-f]{64}/);
});

test("a merge stage whose branch conflicts with the base fails, names the files, and changes nothing", async () => {
  const { repo, script } = await workflowProject("land", `digraph land {\n goal = "Edit the readme"\n start [shape=Mdiamond]\n exit [shape=Msquare]\n edit [prompt="Edit"]\n land [type=merge]\n start -> edit -> land -> exit\n}\n`, {
    edit: [{ write: { path: "README.md", content: "# the run's\n" } }, { wait_for: "go" }],
  });
  const running = runBaton(repo, ["run", "--workflow", "land", "--script", script, "--yes", "--timeout", "5m", "--json"]);
  const runId = await waitForOnlyRun(repo);
  const ready = await waitForEvent(repo, runId, "workspace.ready", (event) => event.type === "workspace.ready");
  // main moves on while the run works: the same line changed both ways.
  await writeFile(join(repo, "README.md"), "# main's\n");
  await git(repo, "commit", "-qam", "main's edit");
  const before = (await git(repo, "rev-parse", "main")).trim();
  await writeFile(join(String(ready.data["path"]), "go"), "");
  const result = await running;
  assert.equal(result.code, 1, result.stderr);
  const events = await readEvents(repo, runId);
  assert.deepEqual(eventsOfType(events, "merge.conflicted")[0]?.data["files"], ["README.md"]);
  const failed = eventsOfType(events, "stage.failed").find((e) => e.data["stage"] === "land");
  assert.equal((failed?.data["error"] as { code?: string } | undefined)?.code, "merge_conflicted");
  assert.equal((await git(repo, "rev-parse", "main")).trim(), before);
  assert.equal(await readFile(join(repo, "README.md"), "utf8"), "# main's\n");
});
