import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { describeRepo } from "./repo.ts";
import { parseStatusV2, readRepoStatus } from "./repo-status.ts";

const exec = promisify(execFile);
const ID = ["-c", "user.name=Test", "-c", "user.email=test@baton.invalid"];

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec("git", args, { cwd })).stdout.trim();
}

test("one git status gives HEAD's commit and branch, and every change as git status --porcelain (v1) names it", async () => {
  const root = await testTempDir("repo-status-");
  await git(root, "init", "-q", "-b", "feature/one");
  assert.deepEqual(await readRepoStatus(root), { branch: "feature/one", changes: [] }, "before the first commit: a branch, no sha");
  for (const name of ["kept.txt", "edited.txt", "gone.txt", "moved from.txt", "staged.txt"]) await writeFile(join(root, name), `${name}\n`.repeat(20));
  await git(root, "add", ".");
  await git(root, ...ID, "commit", "-q", "-m", "Initial commit");
  const sha = await git(root, "rev-parse", "HEAD");
  assert.deepEqual(await readRepoStatus(root), { sha, branch: "feature/one", changes: [] });

  await writeFile(join(root, "edited.txt"), "changed\n");
  await exec("rm", [join(root, "gone.txt")]);
  await rename(join(root, "moved from.txt"), join(root, "moved to.txt"));
  await git(root, "add", "-A", "moved from.txt", "moved to.txt");
  await writeFile(join(root, "staged.txt"), "staged\n");
  await git(root, "add", "staged.txt");
  await mkdir(join(root, "new dir"));
  await writeFile(join(root, "new dir", "a b.txt"), "new\n");
  await mkdir(join(root, ".baton"));
  await writeFile(join(root, ".baton", "config.toml"), "");
  const v1 = (await exec("git", ["status", "--porcelain=v1", "-z", "--untracked-files=all"], { cwd: root })).stdout.split("\0").filter((f) => f !== "");
  const status = await readRepoStatus(root);
  assert.deepEqual(
    status.changes.map((c) => `${c.status} ${c.path}`).sort(),
    v1.filter((f) => /^[ MADRCTU?]{2} /.test(f) && !f.slice(3).startsWith(".baton")).sort(),
    "the same entries as v1 shows, .baton/ left out (v1's rename source field is not an entry)",
  );
  assert.deepEqual(
    status.changes.map((c) => [c.status, c.path]).sort(),
    [[" D", "gone.txt"], [" M", "edited.txt"], ["??", "new dir/a b.txt"], ["M ", "staged.txt"], ["R ", "moved to.txt"]].sort(),
  );
  assert.deepEqual(await describeRepo(root, Promise.resolve(status)), { root, branch: "feature/one", sha, dirty: true });

  await git(root, "checkout", "-q", "--detach");
  const detached = await readRepoStatus(root);
  assert.equal(detached.branch, undefined, "a detached HEAD has no branch");
  assert.equal(detached.sha, sha);
});

test("a repository whose only changes are in .baton/ is clean; git failing leaves describeRepo with the root alone", async () => {
  const root = await testTempDir("repo-status-clean-");
  await git(root, "init", "-q", "-b", "main");
  await git(root, ...ID, "commit", "-q", "--allow-empty", "-m", "Initial commit");
  await mkdir(join(root, ".baton"));
  await writeFile(join(root, ".baton", "x"), "");
  assert.equal((await describeRepo(root)).dirty, false);
  const outside = await testTempDir("repo-status-outside-");
  assert.deepEqual(await describeRepo(outside, readRepoStatus(join(outside, "missing"))), { root: outside, dirty: false });
});

test("parseStatusV2 reads unmerged entries and paths with spaces", () => {
  const text = ["# branch.oid 0123abcd", "# branch.head main", "u UU N... 100644 100644 100644 100644 aaa bbb ccc both ways.txt", "? odd name .txt", ""].join("\0");
  assert.deepEqual(parseStatusV2(text), { sha: "0123abcd", branch: "main", changes: [{ path: "both ways.txt", status: "UU" }, { path: "odd name .txt", status: "??" }] });
});
