import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { isBatonError } from "../errors.ts";
import { openWorkspace } from "./open-workspace.ts";
import { planWorkspace, type WorkspacePlan } from "./plan-workspace.ts";

const exec = promisify(execFile);

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await exec("git", args, { cwd })).stdout.trim();
}

async function makeRepo(prefix: string): Promise<{ root: string; batonDir: string }> {
  const root = await testTempDir(prefix);
  await git(root, "init", "-q", "-b", "main");
  await writeFile(join(root, "README.md"), "# sample\n");
  await git(root, "add", ".");
  await git(root, "-c", "user.name=Test", "-c", "user.email=test@baton.invalid", "commit", "-q", "-m", "Initial commit");
  const batonDir = join(root, ".baton");
  await mkdir(batonDir);
  await writeFile(join(batonDir, ".gitignore"), "*\n!.gitignore\n!config.toml\n");
  return { root, batonDir };
}

/** Worktrees opened at once, like that many `baton run` started together. */
const AT_ONCE = 24;
/** Rounds of them: git's race is narrow, and each round is another chance to hit it. */
const ROUNDS = 5;

test("worktrees opened at once in one repository all open, each on its own branch (git's commondir race is waited out)", async () => {
  const { root, batonDir } = await makeRepo("ws-concurrent-");
  const plan = await planWorkspace({ root, batonDir });
  for (let round = 0; round < ROUNDS; round += 1) {
    const numbers = Array.from({ length: AT_ONCE }, (_, i) => round * AT_ONCE + i + 1);
    const outcomes = await Promise.allSettled(numbers.map((number) => openWorkspace(plan, { number, task: "Same task" })));
    const failures = outcomes.flatMap((outcome) => (outcome.status === "rejected" ? [String((outcome.reason as Error).message)] : []));
    assert.deepEqual(failures, [], `round ${round + 1}: every worktree opens`);
    const paths = outcomes.map((outcome) => (outcome.status === "fulfilled" ? outcome.value.path : ""));
    assert.equal(new Set(paths).size, AT_ONCE, "each worktree has its own folder");
  }
  const listed = (await git(root, "worktree", "list", "--porcelain")).split("\n").filter((line) => line.startsWith("worktree "));
  assert.equal(listed.length, 1 + AT_ONCE * ROUNDS, "git lists every worktree (and the repository)");
  const branches = (await git(root, "branch", "--list", "baton/*", "--format=%(refname:short)")).split("\n");
  assert.equal(branches.length, AT_ONCE * ROUNDS, "one branch per worktree, none left over from a retry");
});

test("a branch of the run's name that exists already is one worktree_failed naming it, and nothing is made", async () => {
  const { root, batonDir } = await makeRepo("ws-branch-taken-");
  const plan = (await planWorkspace({ root, batonDir })) as Extract<WorkspacePlan, { kind: "worktree" }>;
  await git(root, "branch", "baton/7-taken", plan.baseSha);
  const error = await openWorkspace(plan, { number: 7, task: "taken" }).then(
    () => assert.fail("expected a BatonError"),
    (failure: unknown) => failure,
  );
  assert.ok(isBatonError(error), String(error));
  assert.equal(error.code, "worktree_failed");
  assert.match(error.toLine(), /a branch named 'baton\/7-taken' already exists/);
  assert.match(error.toLine(), /git branch -D baton\/7-taken/, "the hint says how to remove the branch");
  assert.equal(existsSync(join(batonDir, "worktrees", "7-taken")), false, "no folder is made");
});

test("a folder in the run's worktree place is one worktree_failed naming it, and the branch made for it is removed again", async () => {
  const { root, batonDir } = await makeRepo("ws-folder-taken-");
  const plan = await planWorkspace({ root, batonDir });
  const path = join(batonDir, "worktrees", "8-taken");
  await mkdir(path, { recursive: true });
  await writeFile(join(path, "stray.txt"), "left here\n");
  const error = await openWorkspace(plan, { number: 8, task: "taken" }).then(
    () => assert.fail("expected a BatonError"),
    (failure: unknown) => failure,
  );
  assert.ok(isBatonError(error), String(error));
  assert.equal(error.code, "worktree_failed");
  assert.match(error.toLine(), /already exists/);
  assert.match(error.toLine(), new RegExp(`remove ${path.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&")}`), "the hint names the folder to remove");
  assert.equal(await git(root, "branch", "--list", "baton/8-taken"), "", "no branch is left behind");
});
