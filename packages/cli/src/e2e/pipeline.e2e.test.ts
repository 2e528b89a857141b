import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { GitHubTwin } from "@baton/testkit/github-twin";
import { cliEnv, eventsOfType, git, makeRepo, onlyRunId, readEvents, runBaton } from "./cli-harness.ts";
import { assertWellClosed } from "./workflow-harness.ts";

const SUBTASKS = {
  subtasks: [
    { id: "alpha", title: "Write alpha", prompt: "Write alpha.txt" },
    { id: "beta", title: "Write beta", prompt: "Write the shared notes, beta's part" },
    { id: "gamma", title: "Write gamma", prompt: "Write the shared notes, gamma's part" },
  ],
};

/**
 * The fake agent scripted per stage and per subtask: a large task, a spec and a plan of three
 * subtasks of which beta and gamma write the same new file (they conflict), a rebuild of gamma
 * on the integrated branch, validation that fails until fix writes fixed.txt.
 */
const STAGES = {
  assess: [{ say: 'A task of three parts. {"preferred_label": "large"}' }],
  spec: [{ write: { path: ".pipeline/spec.md", content: "# Spec\n\nThree parts.\n" } }],
  plan: [{ write: { path: ".pipeline/plan.md", content: "# Plan\n\nalpha, beta, gamma.\n" } }, { write: { path: ".pipeline/subtasks.json", content: JSON.stringify(SUBTASKS) } }],
  "build_subtask/item-0": [{ write: { path: "alpha.txt", content: "alpha\n" } }],
  "build_subtask/item-1": [{ write: { path: "notes.txt", content: "beta\n" } }],
  "build_subtask/item-2": [{ write: { path: "notes.txt", content: "gamma\n" } }],
  rebuild: [{ write: { path: "notes.txt", content: "beta\ngamma\n" } }],
  fix: [{ write: { path: "fixed.txt", content: "fixed\n" } }],
  review: [{ say: "The three parts are there and the checks pass." }],
};

async function pipelineProject(prefix: string, extraConfig = ""): Promise<{ repo: string; script: string }> {
  const repo = await makeRepo(prefix);
  const script = join(repo, ".baton", "stages.json");
  await writeFile(script, JSON.stringify({ stages: STAGES }));
  await writeFile(join(repo, ".baton", "config.toml"), `[validation]\ncommands = ["test -f fixed.txt"]\n\n[pipeline]\napprovals = ["plan", "merge"]\nmax_parallel = 2\n${extraConfig}`);
  return { repo, script };
}

/** Runs the pipeline to its plan gate, approves it (to the merge gate), approves that: what the log then holds. */
async function runToTheEnd(repo: string, script: string, env: Record<string, string>, flags: string[] = []) {
  const first = await runBaton(repo, ["run", "Build the three parts", "--workflow", "pipeline", "--script", script, "--yes", "--timeout", "5m", ...flags], { env });
  assert.equal(first.code, 4, first.stderr + first.stdout);
  const runId = await onlyRunId(repo);
  assert.equal(eventsOfType(await readEvents(repo, runId), "approval.requested").at(-1)?.data["gate"], "approve_plan");
  const plan = await runBaton(repo, ["approve", "1"], { env });
  assert.equal(plan.code, 4, plan.stderr + plan.stdout);
  assert.equal(eventsOfType(await readEvents(repo, runId), "approval.requested").at(-1)?.data["gate"], "approve_merge");
  const merge = await runBaton(repo, ["approve", "1"], { env });
  assert.equal(merge.code, 0, merge.stderr + merge.stdout);
  const events = await readEvents(repo, runId);
  assertWellClosed(events);
  return events;
}

function assertPipelineWork(events: Awaited<ReturnType<typeof readEvents>>): void {
  const artefacts = eventsOfType(events, "artefact.written").map((e) => `${String(e.data["kind"])}:${String(e.data["path"])}`);
  assert.deepEqual(artefacts, ["spec:.pipeline/spec.md", "plan:.pipeline/plan.md", "subtasks:.pipeline/subtasks.json"]);
  const updates = eventsOfType(events, "subtask.updated").map((e) => `${String(e.data["id"])}:${String(e.data["status"])}`);
  for (const id of ["alpha", "beta", "gamma"]) {
    assert.deepEqual(updates.filter((u) => u.startsWith(`${id}:`)), [`${id}:planned`, `${id}:building`, `${id}:built`], id);
  }
  const integrated = eventsOfType(events, "subtask.integrated").map((e) => ({ id: e.data["id"], merged: typeof e.data["commit"] === "string", conflicts: e.data["conflicts"], rerun: e.data["rerun"] === true, stage: e.stage?.id }));
  assert.deepEqual(integrated, [
    { id: "alpha", merged: true, conflicts: [], rerun: false, stage: "integrate" },
    { id: "beta", merged: true, conflicts: [], rerun: false, stage: "integrate" },
    { id: "gamma", merged: false, conflicts: ["notes.txt"], rerun: false, stage: "integrate" },
    { id: "gamma", merged: true, conflicts: [], rerun: true, stage: "rebuild" },
  ]);
  const rerun = eventsOfType(events, "subtask.integrated").at(-1)?.data["commit"];
  const rebuildCommit = eventsOfType(events, "git.committed").find((e) => e.stage?.id === "rebuild")?.data["sha"];
  assert.equal(rerun, rebuildCommit, "the rerun is reported with the commit of the rebuild's work");
  const started = eventsOfType(events, "parallel.started")[0]?.data;
  assert.equal(started?.["max_parallel"], 2);
  const visits = eventsOfType(events, "stage.started").map((e) => String(e.data["stage"]));
  assert.ok(!visits.includes("build"), "a large task is not built in one go");
  assert.equal(visits.filter((stage) => stage === "rebuild").length, 1, "the conflicting subtask is rebuilt once");
  const validations = eventsOfType(events, "validation.completed").map((e) => e.data["passed"]);
  assert.deepEqual(validations, [false, true], "validation fails once, and is fixed");
  assert.ok(visits.indexOf("review") > visits.lastIndexOf("check"));
}

test("the pipeline: assess, spec, plan (gate approved), three subtasks two of which conflict, a rebuild, validation fixed, review, merge (gate approved) into main", async () => {
  const { repo, script } = await pipelineProject("cli-pipeline-");
  const events = await runToTheEnd(repo, script, cliEnv());
  assertPipelineWork(events);
  const merged = eventsOfType(events, "git.merged")[0];
  assert.equal(merged?.stage?.id, "deliver");
  assert.equal((await git(repo, "rev-parse", "main")).trim(), merged?.data["sha"]);
  assert.equal(await readFile(join(repo, "notes.txt"), "utf8"), "beta\ngamma\n", "the rebuilt subtask's work is in main");
  for (const file of ["alpha.txt", "fixed.txt", ".pipeline/plan.md"]) assert.ok((await git(repo, "ls-tree", "-r", "--name-only", "main")).includes(file), `${file} is in main`);
});

test("the pipeline with --pr: the same work pushed to the bare remote and opened as a pull request on the twin", async () => {
  const token = "ghp_pipelineTwinToken0123456789abcdef";
  const bare = await testTempDir("cli-pipeline-pr-remote-");
  await git(bare, "init", "-q", "--bare", "-b", "main");
  await using twin = await GitHubTwin.start({ token, repos: ["acme/app"], remotePath: bare });
  const { repo, script } = await pipelineProject("cli-pipeline-pr-", `\n[delivery]\ngithub_api_url = "${twin.url}"\ngithub_repo = "acme/app"\n`);
  await git(repo, "remote", "add", "origin", bare);
  await git(repo, "push", "-q", "origin", "main");
  const mainBefore = (await git(repo, "rev-parse", "main")).trim();
  const noToken = await runBaton(repo, ["run", "Build the three parts", "--workflow", "pipeline", "--script", script, "--yes", "--timeout", "5m", "--pr"]);
  assert.equal(noToken.code, 2);
  assert.match(noToken.stderr, /the pipeline ends with a pull request on GitHub \(--pr\), and neither GITHUB_TOKEN nor GH_TOKEN is set/);

  const events = await runToTheEnd(repo, script, cliEnv({ GITHUB_TOKEN: token }), ["--pr"]);
  assertPipelineWork(events);
  const created = eventsOfType(events, "pull_request.created")[0];
  assert.equal(created?.stage?.id, "deliver");
  const pull = twin.pulls[0];
  assert.equal(pull?.head, eventsOfType(events, "git.pushed")[0]?.data["branch"]);
  assert.match(pull?.body ?? "", /## Stages \(pipeline\)[\s\S]*- rebuild: succeeded[\s\S]*- ✅ `test -f fixed\.txt`/);
  assert.equal((await git(bare, "show", `${pull?.head ?? ""}:notes.txt`)), "beta\ngamma\n");
  assert.equal((await git(repo, "rev-parse", "main")).trim(), mainBefore, "a pull request leaves main as it was");
});

test("a plan whose subtask list is bad fails its subtasks stage, naming the problem and the shape", async () => {
  const repo = await makeRepo("cli-pipeline-bad-");
  const script = join(repo, ".baton", "stages.json");
  await writeFile(script, JSON.stringify({ stages: { ...STAGES, plan: [{ write: { path: ".pipeline/plan.md", content: "# Plan\n" } }, { write: { path: ".pipeline/subtasks.json", content: '{"subtasks": [{"id": "Alpha One", "title": "x", "prompt": "y"}]}' } }] } }));
  const run = await runBaton(repo, ["run", "Build it", "--workflow", "pipeline", "--script", script, "--yes", "--timeout", "5m"]);
  assert.equal(run.code, 1, run.stderr + run.stdout);
  const events = await readEvents(repo, await onlyRunId(repo));
  const failed = eventsOfType(events, "stage.failed").find((e) => e.data["stage"] === "subtasks");
  const error = failed?.data["error"] as { code: string; message: string } | undefined;
  assert.equal(error?.code, "bad_subtask_list");
  assert.match(error?.message ?? "", /the subtask list \.pipeline\/subtasks\.json is not valid: subtasks\.0\.id: lowercase letters.*it must look like \{ "subtasks": \[/);
  assert.equal(eventsOfType(events, "parallel.started").length, 0, "no subtask is built");
  assertWellClosed(events);
});

test("--validate is kept with the run: after the plan gate is approved, the resumed pipeline still validates with it (and fixes)", async () => {
  const repo = await makeRepo("cli-pipeline-validate-");
  const script = join(repo, ".baton", "stages.json");
  await writeFile(script, JSON.stringify({ stages: STAGES }));
  await writeFile(join(repo, ".baton", "config.toml"), `[pipeline]\napprovals = ["plan"]\n`);
  const first = await runBaton(repo, ["run", "Build the three parts", "--workflow", "pipeline", "--script", script, "--yes", "--timeout", "5m", "--validate", "test -f fixed.txt"]);
  assert.equal(first.code, 4, first.stderr + first.stdout);
  const resumed = await runBaton(repo, ["approve", "1"]);
  assert.equal(resumed.code, 0, resumed.stderr + resumed.stdout);
  assert.match(resumed.stdout, /◇ subtask alpha building[\s\S]*✗ subtask gamma not integrated: conflicts in notes\.txt[\s\S]*⤵ subtask gamma integrated \(rebuilt\)/);
  const events = await readEvents(repo, await onlyRunId(repo));
  const validations = eventsOfType(events, "validation.completed").map((e) => `${String(e.data["command"])}:${String(e.data["passed"])}`);
  assert.deepEqual(validations, ["test -f fixed.txt:false", "test -f fixed.txt:true"]);
  assert.equal((await git(repo, "show", "main:fixed.txt")), "fixed\n");
});
