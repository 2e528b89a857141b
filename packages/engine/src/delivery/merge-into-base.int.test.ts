import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { mergeIntoBase, type MergeRequest } from "./merge-into-base.ts";

const exec = promisify(execFile);
const ENV = { PATH: process.env["PATH"] ?? "", HOME: "/nonexistent", GIT_CONFIG_NOSYSTEM: "1" };

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec("git", args, { cwd, env: ENV })).stdout.trim();
}

async function commitFile(cwd: string, path: string, content: string): Promise<string> {
  await writeFile(join(cwd, path), content);
  await git(cwd, "add", path);
  await git(cwd, "commit", "-q", "-m", `write ${path}`);
  return git(cwd, "rev-parse", "HEAD");
}

/** A repository on main with a README, and a branch `baton/1-work` that adds work.txt (checked out in a worktree of its own). */
async function repoWithBranch(): Promise<{ root: string; worktree: string }> {
  const root = await testTempDir("merge-base-");
  await git(root, "init", "-q", "-b", "main");
  await git(root, "config", "user.name", "Test");
  await git(root, "config", "user.email", "test@baton.invalid");
  await commitFile(root, "README.md", "# sample\n");
  const worktree = join(root, "wt");
  await git(root, "worktree", "add", "-q", "-b", "baton/1-work", worktree);
  await commitFile(worktree, "work.txt", "work\n");
  return { root, worktree };
}

const request = (root: string, strategy: MergeRequest["strategy"] = "merge"): MergeRequest => ({ root, branch: "baton/1-work", base: "main", strategy, subject: "Do the work", runLine: "Baton run run_x (run 1)." });

test("a merge into the base checked out in the user's clean tree makes a merge commit, and the tree shows it", async () => {
  const { root } = await repoWithBranch();
  const outcome = await mergeIntoBase(request(root));
  assert.equal(outcome.kind, "merged");
  assert.equal(await git(root, "rev-parse", "main"), outcome.kind === "merged" ? outcome.sha : "");
  assert.equal((await git(root, "log", "-1", "--format=%P", "main")).split(" ").length, 2, "a merge commit has two parents");
  assert.equal(await readFile(join(root, "work.txt"), "utf8"), "work\n", "the user's tree shows the merged state");
  assert.equal(await git(root, "status", "--porcelain", "--untracked-files=no"), "");
  assert.match(await git(root, "log", "-1", "--format=%s", "main"), /^Merge baton\/1-work into main: Do the work$/);
});

test("squash makes one commit with one parent; ff-only moves the base to the branch's head", async () => {
  const squashed = await repoWithBranch();
  const outcome = await mergeIntoBase(request(squashed.root, "squash"));
  assert.equal(outcome.kind, "merged");
  assert.equal((await git(squashed.root, "log", "-1", "--format=%P", "main")).split(" ").length, 1);
  assert.equal(await git(squashed.root, "log", "-1", "--format=%s", "main"), "Do the work");
  const ff = await repoWithBranch();
  const head = await git(ff.root, "rev-parse", "baton/1-work");
  const fast = await mergeIntoBase(request(ff.root, "ff-only"));
  assert.deepEqual(fast.kind === "merged" ? fast.sha : undefined, head);
  assert.equal(await git(ff.root, "rev-parse", "main"), head);
});

test("ff-only is refused when the base moved on, and nothing changes", async () => {
  const { root } = await repoWithBranch();
  const moved = await commitFile(root, "other.txt", "other\n");
  const outcome = await mergeIntoBase(request(root, "ff-only"));
  assert.equal(outcome.kind, "refused");
  assert.equal(outcome.kind === "refused" ? outcome.code : "", "not_fast_forward");
  assert.equal(await git(root, "rev-parse", "main"), moved);
});

test("the user's uncommitted work refuses the merge: the base and the tree stay as they were", async () => {
  const { root } = await repoWithBranch();
  const before = await git(root, "rev-parse", "main");
  await writeFile(join(root, "README.md"), "# my own edit\n");
  const outcome = await mergeIntoBase(request(root));
  assert.equal(outcome.kind, "refused");
  assert.match(outcome.kind === "refused" ? `${outcome.message}: ${outcome.hint}` : "", /main is checked out in .* with uncommitted changes \(1 file\).*commit or stash/);
  assert.equal(await git(root, "rev-parse", "main"), before);
  assert.equal(await readFile(join(root, "README.md"), "utf8"), "# my own edit\n");
});

test("a conflict changes nothing and names the files", async () => {
  const { root, worktree } = await repoWithBranch();
  await commitFile(worktree, "README.md", "# the branch's\n");
  const before = await commitFile(root, "README.md", "# main's\n");
  const outcome = await mergeIntoBase(request(root));
  assert.deepEqual(outcome, { kind: "conflicted", files: ["README.md"] });
  assert.equal(await git(root, "rev-parse", "main"), before);
  assert.equal(await readFile(join(root, "README.md"), "utf8"), "# main's\n");
  assert.equal(await git(root, "status", "--porcelain", "--untracked-files=no"), "");
});

test("a base checked out nowhere moves by its ref; a branch already in the base is up to date", async () => {
  const { root } = await repoWithBranch();
  await git(root, "checkout", "-q", "--detach");
  const outcome = await mergeIntoBase(request(root));
  assert.equal(outcome.kind === "merged" && outcome.worktree === undefined, true);
  const again = await mergeIntoBase(request(root));
  assert.deepEqual(again.kind === "merged" ? again.upToDate : undefined, true);
  const missing = await mergeIntoBase({ ...request(root), base: "nope" });
  assert.equal(missing.kind, "refused");
});
