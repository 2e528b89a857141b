import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { isWorkflowError } from "../errors.ts";
import { loadValidWorkflow, loadWorkflow } from "./load.ts";
import { locateWorkflow } from "./locate.ts";

const GOOD = 'digraph Named {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [label="Work", prompt="Do it."]\n  start -> work -> exit\n}\n';

async function project(files: Record<string, string>): Promise<string> {
  const root = await testTempDir("workflow-lookup-");
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

test("a name is looked up as .baton/workflows/NAME.dot or NAME.fabro under the project root", async () => {
  const root = await project({ ".baton/workflows/review.dot": GOOD, ".baton/workflows/triage.fabro": GOOD });
  const sub = join(root, "src");
  await mkdir(sub);
  assert.deepEqual(await locateWorkflow("review", { cwd: sub, projectRoot: root }), { kind: "file", path: join(root, ".baton/workflows/review.dot") });
  assert.deepEqual(await locateWorkflow("triage", { cwd: sub, projectRoot: root }), { kind: "file", path: join(root, ".baton/workflows/triage.fabro") });
});

test("a path is taken as given, relative to the cwd; single is built in", async () => {
  const root = await project({ "flows/mine.dot": GOOD, "flows/plain": GOOD });
  assert.deepEqual(await locateWorkflow("flows/mine.dot", { cwd: root, projectRoot: root }), { kind: "file", path: join(root, "flows/mine.dot") });
  assert.deepEqual(await locateWorkflow("./flows/plain", { cwd: root, projectRoot: root }), { kind: "file", path: join(root, "flows/plain") });
  assert.deepEqual(await locateWorkflow("single", { cwd: root, projectRoot: root }), { kind: "builtin", name: "single" });
});

test("pipeline is built in, but a project's own .baton/workflows/pipeline.dot comes first", async () => {
  const bare = await project({});
  assert.deepEqual(await locateWorkflow("pipeline", { cwd: bare, projectRoot: bare }), { kind: "builtin", name: "pipeline" });
  const loaded = await loadWorkflow("pipeline", { cwd: bare, projectRoot: bare, pipeline: { approvals: ["merge"] } });
  assert.ok(loaded.definition?.nodes.some((node) => node.id === "approve_merge"), "the built-in is made with the options given");
  const own = await project({ ".baton/workflows/pipeline.dot": GOOD });
  assert.deepEqual(await locateWorkflow("pipeline", { cwd: own, projectRoot: own }), { kind: "file", path: join(own, ".baton/workflows/pipeline.dot") });
});

test("not found: one error naming every place looked, and what to do", async () => {
  const root = await project({});
  const refusal = async (ref: string) => {
    try {
      await locateWorkflow(ref, { cwd: root, projectRoot: root });
    } catch (error) {
      assert.ok(isWorkflowError(error) && error.code === "workflow_not_found");
      return error.toLine();
    }
    assert.fail(`${ref} was found`);
  };
  assert.equal(
    await refusal("review"),
    `no workflow named "review": looked for .baton/workflows/review.dot and .baton/workflows/review.fabro in ${root}, and among the built-in workflows (single, pipeline): create .baton/workflows/review.dot, or pass the path of a .dot or .fabro file`,
  );
  assert.match(await refusal("missing/flow.dot"), new RegExp(`^no workflow file missing/flow\\.dot \\(looked at ${join(root, "missing/flow.dot")}\\): check the path`));
  assert.match(await refusal("bad name!"), /neither a workflow name nor a path/);
});

test("a name that is both .dot and .fabro is ambiguous", async () => {
  const root = await project({ ".baton/workflows/x.dot": GOOD, ".baton/workflows/x.fabro": GOOD });
  await assert.rejects(locateWorkflow("x", { cwd: root, projectRoot: root }), /workflow "x" is both .*x\.dot and .*x\.fabro/);
});

test("loading reads, parses and checks; the file is named relative to the cwd", async () => {
  const root = await project({ ".baton/workflows/review.dot": GOOD, ".baton/workflows/broken.dot": "digraph { start -> work }\n" });
  const good = await loadWorkflow("review", { cwd: root, projectRoot: root });
  assert.deepEqual([good.display, good.definition?.name, good.diagnostics], [".baton/workflows/review.dot", "Named", []]);
  const broken = await loadWorkflow("broken", { cwd: root, projectRoot: root });
  assert.deepEqual(broken.diagnostics.map((d) => `${d.file} ${d.rule}`).sort(), [
    ".baton/workflows/broken.dot dead-end", ".baton/workflows/broken.dot edge-target", ".baton/workflows/broken.dot exit-node", ".baton/workflows/broken.dot missing-prompt",
  ]);
  const single = await loadWorkflow("single", { cwd: root, projectRoot: root });
  assert.deepEqual([single.display, single.definition?.nodes.map((n) => n.id), single.diagnostics], ["single", ["start", "task", "exit"], []]);
});

test("loadValidWorkflow refuses a file with an error: its first error in one line, and how to see them all", async () => {
  const root = await project({ "flow.dot": "digraph {\n  start -> exit\n  exit -> start\n}\n" });
  await assert.rejects(loadValidWorkflow("flow.dot", { cwd: root, projectRoot: root }), (error: unknown) => {
    assert.ok(isWorkflowError(error) && error.code === "workflow_invalid");
    assert.equal(error.toLine(), "flow.dot:3:3: error start-incoming: the edge exit -> start leads into the start stage (fix: point it at the first real stage instead: start runs once): run `baton workflow check flow.dot` to see all 2 errors");
    assert.equal(error.diagnostics.length, 2);
    return true;
  });
  const valid = await loadValidWorkflow("single", { cwd: root, projectRoot: root });
  assert.equal(valid.definition.name, "single");
});
