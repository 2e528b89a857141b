import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { commitWorkspace } from "../../workspace/commit-workspace.ts";
import { openWorkspace, type Workspace } from "../../workspace/open-workspace.ts";
import { planWorkspace } from "../../workspace/plan-workspace.ts";
import { branchWorktreeNames, openBranchWorktree, removeBranchWorktree } from "./branch-worktree.ts";
import { abortUnfinishedMerge, mergeBranch } from "./integrate.ts";

const exec = promisify(execFile);
const ENV = { PATH: process.env["PATH"] ?? "", HOME: "/nonexistent", GIT_CONFIG_NOSYSTEM: "1" };

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec("git", args, { cwd, env: ENV })).stdout.trim();
}

/** A run's worktree (`baton/1-fan` in `.baton/worktrees/1-fan`) in a fresh repository. */
async function runWorkspace(): Promise<Workspace> {
  const root = await testTempDir("integrate-");
  await git(root, "init", "-q", "-b", "main");
  await writeFile(join(root, "README.md"), "# sample\n");
  await git(root, "add", ".");
  await git(root, "-c", "user.name=Test", "-c", "user.email=test@baton.invalid", "commit", "-q", "-m", "Initial commit");
  const batonDir = join(root, ".baton");
  await mkdir(batonDir);
  await writeFile(join(batonDir, ".gitignore"), "*\n!.gitignore\n");
  return openWorkspace(await planWorkspace({ root, batonDir }), { number: 1, task: "fan" });
}

async function commitIn(workspace: Workspace, file: string, text: string): Promise<string> {
  await writeFile(join(workspace.path, file), text);
  const commit = await commitWorkspace(workspace, { runId: "run_x", number: 1, task: `write ${file}` });
  assert.ok(commit !== undefined);
  return commit.sha;
}

test("branches merge into the run's branch one at a time as merge commits; a conflict is aborted and names its files; merging again merges nothing", async () => {
  const run = await runWorkspace();
  const base = await git(run.path, "rev-parse", "HEAD");
  const [left, right, other] = await Promise.all(["left", "right", "other"].map((id) => openBranchWorktree(run, id, base)));
  assert.deepEqual([left!.path, left!.branch], [`${run.path}--left`, "baton/1-fan--left"]);
  const leftHead = await commitIn(left!, "greeting.txt", "hello\n");
  const rightHead = await commitIn(right!, "greeting.txt", "hi\n");
  const otherHead = await commitIn(other!, "other.txt", "other\n");

  const merged = await mergeBranch(run, { sha: leftHead, message: "gather: merge branch left" });
  assert.equal(merged.kind, "merged");
  assert.equal(await git(run.path, "log", "-1", "--format=%P %s"), `${base} ${leftHead} gather: merge branch left`);
  const conflicted = await mergeBranch(run, { sha: rightHead, message: "gather: merge branch right" });
  assert.deepEqual(conflicted, { kind: "conflicted", files: ["greeting.txt"] });
  assert.equal(await git(run.path, "status", "--porcelain"), "", "the conflicted merge was aborted");
  assert.equal(await git(run.path, "rev-parse", "HEAD"), merged.kind === "merged" ? merged.sha : "");
  assert.equal((await mergeBranch(run, { sha: otherHead, message: "gather: merge branch other" })).kind, "merged", "the next branch still merges");
  const again = await mergeBranch(run, { sha: leftHead, message: "gather: merge branch left" });
  assert.deepEqual(again, { kind: "empty", sha: await git(run.path, "rev-parse", "HEAD") });

  // The worktrees go; a git branch with work the run's branch lacks stays.
  for (const id of ["left", "right", "other"]) await removeBranchWorktree(run, { ...branchWorktreeNames(run, id), baseSha: base });
  assert.ok(!existsSync(left!.path) && !existsSync(right!.path));
  assert.equal(await git(run.path, "branch", "--list", "baton/1-fan--*", "--format=%(refname:short)"), "baton/1-fan--right");
});

test("a branch worktree is taken back on a resume: the same folder, or a new one on its git branch when the folder is gone", async () => {
  const run = await runWorkspace();
  const base = await git(run.path, "rev-parse", "HEAD");
  const first = await openBranchWorktree(run, "a", base);
  const head = await commitIn(first, "a.txt", "a\n");
  await writeFile(join(first.path, "left-over.txt"), "uncommitted\n");
  const again = await openBranchWorktree(run, "a", base);
  assert.equal(again.path, first.path);
  assert.ok(existsSync(join(again.path, "left-over.txt")), "what the branch left is still there");
  await git(run.path, "worktree", "remove", "--force", first.path);
  const recreated = await openBranchWorktree(run, "a", base);
  assert.equal(await git(recreated.path, "rev-parse", "HEAD"), head, "it goes on from its last commit");
});

test("a merge left half done by a killed process is aborted before anything else", async () => {
  const run = await runWorkspace();
  const base = await git(run.path, "rev-parse", "HEAD");
  const branch = await openBranchWorktree(run, "b", base);
  const theirs = await commitIn(branch, "x.txt", "theirs\n");
  await commitIn(run, "x.txt", "ours\n");
  await exec("git", ["-c", "user.name=T", "-c", "user.email=t@t", "merge", "--no-ff", "-m", "m", theirs], { cwd: run.path, env: ENV }).catch(() => undefined);
  assert.equal(await abortUnfinishedMerge(run), true);
  assert.equal(await git(run.path, "status", "--porcelain"), "");
  assert.equal(await abortUnfinishedMerge(run), false);
});
