import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { isBatonError } from "../errors.ts";
import { RemoteCache } from "./remote-cache.ts";

const exec = promisify(execFile);
const ENV = { ...process.env, GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@baton.invalid", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@baton.invalid", GIT_CONFIG_NOSYSTEM: "1" };
const git = async (cwd: string, ...args: string[]) => (await exec("git", args, { cwd, env: ENV })).stdout.trim();

async function remoteWithCommit(): Promise<{ remote: string; repo: string; base: string }> {
  const root = await testTempDir("remote-cache-");
  const repo = join(root, "repo");
  const remote = join(root, "origin.git");
  await git(root, "init", "-q", "-b", "main", repo);
  await writeFile(join(repo, "README.md"), "one\n");
  await git(repo, "add", "README.md");
  await git(repo, "commit", "-q", "-m", "one");
  await git(root, "init", "-q", "--bare", "-b", "main", remote);
  await git(repo, "push", "-q", remote, "main");
  return { remote, repo, base: await git(repo, "rev-parse", "HEAD") };
}

test("a checkout per run from a bare clone of the remote, fetched again for a later base; a branch made in it is pushed back", async () => {
  const { remote, repo, base } = await remoteWithCommit();
  const cache = new RemoteCache(await testTempDir("remote-cache-worker-"));
  const first = await cache.checkout(remote, base, "run_A");
  assert.equal(await readFile(join(first, "README.md"), "utf8"), "one\n");
  assert.equal(await git(first, "rev-parse", "HEAD"), base);
  assert.equal(await git(first, "status", "--porcelain"), "", "the checkout is clean: its .baton/ is ignored");

  await writeFile(join(repo, "README.md"), "two\n");
  await git(repo, "commit", "-q", "-am", "two");
  await git(repo, "push", "-q", remote, "main");
  const later = await git(repo, "rev-parse", "HEAD");
  const second = await cache.checkout(remote, later, "run_B");
  assert.equal(await readFile(join(second, "README.md"), "utf8"), "two\n", "the clone was fetched for the later base");

  await git(second, "switch", "-q", "-c", "baton/2-work");
  await writeFile(join(second, "work.txt"), "done\n");
  await git(second, "add", "work.txt");
  await git(second, "commit", "-q", "-m", "work");
  await cache.push(remote, "baton/2-work");
  assert.equal(await git(repo, "--git-dir", remote, "show", "baton/2-work:work.txt"), "done");
  // The same run again (its job retried on this worker): a fresh checkout in the same place.
  assert.equal(await cache.checkout(remote, base, "run_A"), first);
});

test("a base the remote does not have, or a remote that cannot be read: workspace_remote, naming what failed", async () => {
  const { remote } = await remoteWithCommit();
  const cache = new RemoteCache(await testTempDir("remote-cache-bad-"));
  await assert.rejects(cache.checkout(remote, "0123456789abcdef0123456789abcdef01234567", "run_C"), (error) => isBatonError(error) && error.code === "workspace_remote" && /finding the run's base/.test(error.message));
  await assert.rejects(cache.checkout(join(remote, "..", "nowhere.git"), "HEAD", "run_D"), (error) => isBatonError(error) && error.code === "workspace_remote" && /cloning/.test(error.message));
});

test("a lost run's checkpoints: the newest whose commit the remote's branch has is found, and a worktree is made on the branch at it", async () => {
  const { remote, repo, base } = await remoteWithCommit();
  const commits: string[] = [];
  await git(repo, "switch", "-q", "-c", "baton/3-steps");
  for (const step of ["a", "b", "c"]) {
    await writeFile(join(repo, `${step}.txt`), `${step}\n`);
    await git(repo, "add", `${step}.txt`);
    await git(repo, "commit", "-q", "-m", step);
    commits.push(await git(repo, "rev-parse", "HEAD"));
  }
  const checkpoints = [
    { seq: 5, stage: "start", commit: base },
    { seq: 9, stage: "a", commit: commits[0] },
    { seq: 14, stage: "b", commit: commits[1] },
    { seq: 20, stage: "c", commit: commits[2] },
  ];
  const cache = new RemoteCache(await testTempDir("remote-cache-continue-"));
  await cache.checkout(remote, base, "run_E");
  assert.equal(await cache.newestPushed(remote, "baton/3-steps", checkpoints), undefined, "no branch on the remote: no checkpoint to go on from");

  // The lost worker pushed after b, not after c: b is the newest the remote has.
  await git(repo, "push", "-q", remote, `${commits[1] as string}:refs/heads/baton/3-steps`);
  const checkout = await cache.checkout(remote, base, "run_E");
  assert.deepEqual(await cache.newestPushed(remote, "baton/3-steps", checkpoints), checkpoints[2]);
  // A commit pushed that no checkpoint names (it died between the two): its checkpoint is still found.
  await git(repo, "push", "-q", "--force", remote, `${commits[2] as string}:refs/heads/baton/3-steps`);
  await cache.checkout(remote, base, "run_E");
  assert.deepEqual(await cache.newestPushed(remote, "baton/3-steps", checkpoints.slice(0, 3)), checkpoints[2]);

  const path = join(checkout, ".baton", "worktrees", "3-steps");
  await cache.worktreeAt(remote, path, "baton/3-steps", commits[0] as string);
  assert.equal(await git(path, "rev-parse", "HEAD"), commits[0]);
  assert.equal(await git(path, "rev-parse", "--abbrev-ref", "HEAD"), "baton/3-steps");
  assert.equal(await readFile(join(path, "a.txt"), "utf8"), "a\n");
  // Its branch, moved back to the checkpoint, is pushed over the remote's newer tip.
  await writeFile(join(path, "b.txt"), "b again\n");
  await git(path, "add", "b.txt");
  await git(path, "commit", "-q", "-m", "b again");
  await cache.push(remote, "baton/3-steps");
  assert.equal(await git(repo, "--git-dir", remote, "show", "baton/3-steps:b.txt"), "b again");
});
