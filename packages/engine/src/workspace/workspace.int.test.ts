import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { isBatonError } from "../errors.ts";
import { cleanRunWorktree } from "./clean-worktree.ts";
import { commitWorkspace, FALLBACK_IDENTITY, PACKED_ADD_FILES } from "./commit-workspace.ts";
import { openWorkspace, type Workspace } from "./open-workspace.ts";
import { planWorkspace } from "./plan-workspace.ts";
import { runDiff } from "./run-diff.ts";

const exec = promisify(execFile);
const ID = ["-c", "user.name=Test", "-c", "user.email=test@baton.invalid"];

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec("git", args, { cwd })).stdout.trim();
}

/** A repository with one commit on main, a second branch `other`, and `.baton/` as `baton init` makes it. */
async function makeRepo(prefix: string): Promise<{ root: string; batonDir: string }> {
  const root = await testTempDir(prefix);
  await git(root, "init", "-q", "-b", "main");
  await writeFile(join(root, "README.md"), "# sample\n");
  await writeFile(join(root, "old-name.txt"), "moving soon\n");
  await git(root, "add", ".");
  await git(root, ...ID, "commit", "-q", "-m", "Initial commit");
  await git(root, "branch", "other");
  const batonDir = join(root, ".baton");
  await mkdir(batonDir);
  await writeFile(join(batonDir, ".gitignore"), "*\n!.gitignore\n!config.toml\n");
  return { root, batonDir };
}

async function rejection(promise: Promise<unknown>): Promise<{ code: string; line: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(isBatonError(error), String(error));
    return { code: error.code, line: error.toLine() };
  }
  assert.fail("expected a BatonError");
}

test("a worktree run gets baton/<number>-<slug> in .baton/worktrees/, from HEAD, ignored by git", async () => {
  const { root, batonDir } = await makeRepo("ws-open-");
  const plan = await planWorkspace({ root, batonDir });
  const head = await git(root, "rev-parse", "HEAD");
  assert.deepEqual(plan, { kind: "worktree", root, batonDir, base: "main", baseSha: head, baseBranch: "main", dirty: [] });
  const workspace = await openWorkspace(plan, { number: 3, task: "Fix the flaky date test!" });
  assert.equal(workspace.path, join(batonDir, "worktrees", "3-fix-the-flaky-date-test"));
  assert.equal(workspace.branch, "baton/3-fix-the-flaky-date-test");
  assert.equal(await git(workspace.path, "rev-parse", "HEAD"), head);
  assert.equal(await git(workspace.path, "symbolic-ref", "--short", "HEAD"), "baton/3-fix-the-flaky-date-test");
  assert.equal(await git(root, "status", "--porcelain", "--untracked-files=all", "--", ":(exclude).baton/.gitignore"), "", "the worktree is not the user's untracked file");
});

test("--base: a branch, tag or commit is the base; anything else is one bad_base error and nothing is made", async () => {
  const { root, batonDir } = await makeRepo("ws-base-");
  const head = await git(root, "rev-parse", "HEAD");
  assert.deepEqual(await planWorkspace({ root, batonDir, base: "other" }), { kind: "worktree", root, batonDir, base: "other", baseSha: head, baseBranch: "other", dirty: [] });
  const bySha = await planWorkspace({ root, batonDir, base: head.slice(0, 10) });
  assert.equal(bySha.kind === "worktree" && bySha.baseSha, head);
  assert.equal(bySha.kind === "worktree" && bySha.baseBranch, undefined);
  for (const bad of ["nosuch", "--all", "main~5"]) {
    const error = await rejection(planWorkspace({ root, batonDir, base: bad }));
    assert.equal(error.code, "bad_base");
    assert.match(error.line, new RegExp(`--base ${bad.replace(/[~-]/g, "\\$&")} is not a commit`));
    assert.doesNotMatch(error.line, /\n/);
  }
  assert.equal(existsSync(join(batonDir, "worktrees")), false);
});

test("a dirty tree is refused, naming what is dirty and both ways out; .baton/ does not count", async () => {
  const { root, batonDir } = await makeRepo("ws-dirty-");
  await writeFile(join(batonDir, "config.toml"), "");
  assert.equal((await planWorkspace({ root, batonDir })).kind, "worktree", ".baton/ files are not dirt");
  await writeFile(join(root, "README.md"), "# changed\n");
  await writeFile(join(root, "new.txt"), "new\n");
  const error = await rejection(planWorkspace({ root, batonDir }));
  assert.equal(error.code, "dirty_worktree");
  assert.match(error.line, /uncommitted changes \(README\.md, untracked new\.txt\)/);
  assert.match(error.line, /commit or stash them/);
  assert.match(error.line, /--include-dirty/);
});

test("--include-dirty copies staged, unstaged, untracked changes and deletions into the worktree, uncommitted", async () => {
  const { root, batonDir } = await makeRepo("ws-include-");
  await writeFile(join(root, "README.md"), "# staged\n");
  await git(root, "add", "README.md");
  await writeFile(join(root, "README.md"), "# staged\nand unstaged\n");
  await rm(join(root, "old-name.txt"));
  await mkdir(join(root, "notes"));
  await writeFile(join(root, "notes", "todo.txt"), "untracked\n");
  const plan = await planWorkspace({ root, batonDir, includeDirty: true });
  const workspace = await openWorkspace(plan, { number: 1, task: "carry on" });
  assert.deepEqual([...(workspace.includedDirty ?? [])].sort(), ["README.md", "notes/todo.txt", "old-name.txt"]);
  assert.equal(await readFile(join(workspace.path, "README.md"), "utf8"), "# staged\nand unstaged\n");
  assert.equal(await readFile(join(workspace.path, "notes", "todo.txt"), "utf8"), "untracked\n");
  assert.equal(existsSync(join(workspace.path, "old-name.txt")), false);
  assert.equal(await git(workspace.path, "rev-parse", "HEAD"), await git(root, "rev-parse", "HEAD"), "nothing committed yet");
  // They become part of the run's commit.
  const commit = await commitWorkspace(workspace, { runId: "run_X", number: 1, task: "carry on" });
  assert.deepEqual(commit?.files.map((f) => `${f.change} ${f.path}`).sort(), ["added notes/todo.txt", "deleted old-name.txt", "modified README.md"]);
});

test("--in-place uses the repository itself and refuses --base and --include-dirty", async () => {
  const { root, batonDir } = await makeRepo("ws-inplace-");
  await writeFile(join(root, "dirty.txt"), "fine in place\n");
  assert.deepEqual(await planWorkspace({ root, batonDir, inPlace: true }), { kind: "in_place", root });
  assert.deepEqual(await openWorkspace({ kind: "in_place", root }, { number: 1, task: "t" }), { kind: "in_place", path: root, root });
  assert.equal((await rejection(planWorkspace({ root, batonDir, inPlace: true, base: "main" }))).code, "usage");
  assert.equal((await rejection(planWorkspace({ root, batonDir, inPlace: true, includeDirty: true }))).code, "usage");
});

test("the commit holds every change (added, modified, deleted, renamed), first line from the task, body naming the run", async () => {
  const { root, batonDir } = await makeRepo("ws-commit-");
  const workspace = await openWorkspace(await planWorkspace({ root, batonDir }), { number: 2, task: "Tidy the repo\n\nwith details" });
  await writeFile(join(workspace.path, "README.md"), "# tidy\n");
  await writeFile(join(workspace.path, "added.txt"), "new\n");
  await git(workspace.path, "mv", "old-name.txt", "new-name.txt");
  const commit = await commitWorkspace(workspace, { runId: "run_01ABC", number: 2, task: "Tidy the repo\n\nwith details" });
  assert.ok(commit);
  assert.equal(commit.branch, "baton/2-tidy-the-repo-with-details");
  assert.equal(commit.message, "Tidy the repo");
  assert.deepEqual(
    commit.files.sort((a, b) => (a.path < b.path ? -1 : 1)),
    [
      { path: "README.md", change: "modified" },
      { path: "added.txt", change: "added" },
      { path: "new-name.txt", change: "renamed", from: "old-name.txt" },
    ],
  );
  assert.equal(await git(root, "rev-parse", commit.branch), commit.sha);
  assert.equal(await git(root, "log", "-1", "--format=%B", commit.sha), "Tidy the repo\n\nBaton run run_01ABC (run 2).");
  assert.equal(await commitWorkspace(workspace, { runId: "run_01ABC", number: 2, task: "again" }), undefined, "no changes, no commit");
});

test(`a change of ${PACKED_ADD_FILES} files or more is added as one pack, fewer as loose objects; the commit holds every file either way`, async () => {
  const { root, batonDir } = await makeRepo("ws-packed-");
  const workspace = await openWorkspace(await planWorkspace({ root, batonDir }), { number: 1, task: "Many files" });
  const objects = join(root, ".git", "objects");
  const looseObjects = async () => (await readdir(objects)).filter((name) => /^[0-9a-f]{2}$/.test(name)).length;
  const packs = async () => (await readdir(join(objects, "pack"))).filter((name) => name.endsWith(".pack")).length;
  const [looseBefore, packsBefore] = [await looseObjects(), await packs()];

  await mkdir(join(workspace.path, "many"));
  for (let index = 0; index < PACKED_ADD_FILES; index += 1) await writeFile(join(workspace.path, "many", `file-${index}.txt`), `file ${index}\n`);
  const many = await commitWorkspace(workspace, { runId: "run_1", number: 1, task: "Many files" });
  assert.equal(many?.files.length, PACKED_ADD_FILES);
  assert.equal(await packs(), packsBefore + 1, "the blobs went into one new pack");
  assert.equal(await git(root, "show", `${many?.sha ?? ""}:many/file-7.txt`), "file 7");
  assert.equal(await git(root, "fsck", "--no-progress", "--strict"), "");

  await writeFile(join(workspace.path, "one.txt"), "one\n");
  const one = await commitWorkspace(workspace, { runId: "run_1", number: 1, task: "One file" });
  assert.deepEqual(one?.files, [{ path: "one.txt", change: "added" }]);
  assert.equal(await packs(), packsBefore + 1, "no pack for a small change");
  assert.ok((await looseObjects()) > looseBefore, "a small change is stored loose");
});

test("a change git shows that `add` stages nothing of (a submodule's own uncommitted work) makes no commit; a failed commit is still an error", async () => {
  const { root } = await makeRepo("ws-submodule-");
  const { root: library } = await makeRepo("ws-submodule-library-");
  await git(root, "-c", "protocol.file.allow=always", "submodule", "add", "--quiet", library, "library");
  await git(root, "add", ".baton");
  await git(root, ...ID, "commit", "-q", "-m", "Add the library");
  const head = await git(root, "rev-parse", "HEAD");
  const workspace = await openWorkspace({ kind: "in_place", root }, { number: 1, task: "t" });
  await writeFile(join(root, "library", "README.md"), "# changed inside the submodule\n");
  assert.equal(await git(root, "status", "--porcelain"), "M library", "git shows the submodule as changed, and nothing else");
  assert.equal(await commitWorkspace(workspace, { runId: "run_1", number: 1, task: "t" }), undefined);
  assert.equal(await git(root, "rev-parse", "HEAD"), head, "no commit was made");

  // A commit that fails with something staged (here its signature cannot be made) is not taken for "nothing changed".
  await writeFile(join(root, "new.txt"), "new\n");
  await git(root, "config", "commit.gpgSign", "true");
  await git(root, "config", "gpg.program", "false");
  await assert.rejects(commitWorkspace(workspace, { runId: "run_1", number: 1, task: "t" }), /gpg/);
  assert.equal(await git(root, "rev-parse", "HEAD"), head);
});

test("without a git identity the commit is Baton's; with one it is the user's", async () => {
  const { root, batonDir } = await makeRepo("ws-identity-");
  const workspace = await openWorkspace(await planWorkspace({ root, batonDir }), { number: 1, task: "who" });
  await writeFile(join(workspace.path, "a.txt"), "a\n");
  // An empty value here hides any global identity, as on a machine that has none.
  await git(root, "config", "user.name", "");
  await git(root, "config", "user.email", "");
  const anonymous = await commitWorkspace(workspace, { runId: "run_1", number: 1, task: "who" });
  if (process.env["GIT_AUTHOR_NAME"] === undefined && process.env["GIT_AUTHOR_EMAIL"] === undefined) {
    assert.equal(await git(root, "log", "-1", "--format=%an <%ae>", anonymous?.sha ?? ""), `${FALLBACK_IDENTITY.name} <${FALLBACK_IDENTITY.email}>`);
  }
  await git(root, "config", "user.name", "Ada");
  await git(root, "config", "user.email", "ada@example.invalid");
  await writeFile(join(workspace.path, "b.txt"), "b\n");
  const owned = await commitWorkspace(workspace, { runId: "run_1", number: 1, task: "who" });
  if (process.env["GIT_AUTHOR_NAME"] === undefined) assert.equal(await git(root, "log", "-1", "--format=%an", owned?.sha ?? ""), "Ada");
});

async function finishedRun(prefix: string): Promise<{ root: string; workspace: Workspace; sha: string }> {
  const { root, batonDir } = await makeRepo(prefix);
  const workspace = await openWorkspace(await planWorkspace({ root, batonDir }), { number: 1, task: "Add a file" });
  await writeFile(join(workspace.path, "file.txt"), "content\n");
  const commit = await commitWorkspace(workspace, { runId: "run_1", number: 1, task: "Add a file" });
  return { root, workspace, sha: commit?.sha ?? "" };
}

function record(workspace: Workspace, sha?: string) {
  return {
    workspace: { kind: workspace.kind, path: workspace.path, branch: workspace.branch as string, base: workspace.base as string, base_sha: workspace.baseSha as string },
    ...(sha === undefined ? {} : { commit: { sha, branch: workspace.branch as string } }),
  };
}

test("runDiff: the commit against its base, or the working changes (untracked included) before a commit", async () => {
  const { root, batonDir } = await makeRepo("ws-diff-");
  const workspace = await openWorkspace(await planWorkspace({ root, batonDir }), { number: 1, task: "diff me" });
  await writeFile(join(workspace.path, "README.md"), "# changed\n");
  await writeFile(join(workspace.path, "fresh.txt"), "fresh\n");
  const working = await runDiff(root, record(workspace));
  assert.match(working, /^\+# changed$/m);
  assert.match(working, /^\+\+\+ b\/fresh\.txt$/m);
  const commit = await commitWorkspace(workspace, { runId: "run_1", number: 1, task: "diff me" });
  const committed = await runDiff(root, record(workspace, commit?.sha));
  assert.match(committed, /^diff --git a\/README\.md b\/README\.md$/m);
  assert.match(committed, /^\+fresh$/m);
  assert.match(await runDiff(root, record(workspace, commit?.sha), { stat: true }), /2 files changed/);
});

test("clean removes the worktree and keeps a branch with unmerged commits, saying how many", async () => {
  const { root, workspace } = await finishedRun("ws-clean-keep-");
  const outcome = await cleanRunWorktree(root, record(workspace));
  assert.equal(outcome.removedWorktree, true);
  assert.deepEqual(outcome.branch, { name: "baton/1-add-a-file", action: "kept", unmerged: 1, base: "main" });
  assert.equal(existsSync(workspace.path), false);
  assert.doesNotMatch(await git(root, "worktree", "list"), /worktrees/);
  assert.equal(await git(root, "branch", "--list", "baton/1-add-a-file"), "baton/1-add-a-file");
});

test("clean deletes the branch once it is merged into its base, and a second clean finds nothing", async () => {
  const { root, workspace } = await finishedRun("ws-clean-merged-");
  await git(root, ...ID, "merge", "-q", "--ff-only", "baton/1-add-a-file");
  const outcome = await cleanRunWorktree(root, record(workspace));
  assert.deepEqual(outcome, { removedWorktree: true, branch: { name: "baton/1-add-a-file", action: "deleted", base: "main" } });
  assert.equal(await git(root, "branch", "--list", "baton/*"), "");
  assert.deepEqual(await cleanRunWorktree(root, record(workspace)), { removedWorktree: false, branch: { name: "baton/1-add-a-file", action: "absent" } });
});

test("clean keeps a worktree that holds uncommitted changes (a run killed before its commit)", async () => {
  const { root, workspace } = await finishedRun("ws-clean-dirty-");
  await writeFile(join(workspace.path, "unsaved.txt"), "not committed\n");
  assert.deepEqual(await cleanRunWorktree(root, record(workspace)), { removedWorktree: false, keptDirty: true, branch: undefined });
  assert.equal(await readFile(join(workspace.path, "unsaved.txt"), "utf8"), "not committed\n");
});
