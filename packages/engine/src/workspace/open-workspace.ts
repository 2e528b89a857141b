import { existsSync } from "node:fs";
import { appendFile, cp, mkdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { BatonError } from "../errors.ts";
import { git, gitFailure, gitRaw } from "./git-cli.ts";
import type { WorkspacePlan } from "./plan-workspace.ts";
import { taskSlug } from "./task-slug.ts";
import { retryingWorktreeRace } from "./worktree-race.ts";

/** Where a run works, once it is ready. */
export type Workspace = {
  kind: "worktree" | "in_place";
  /** The directory the agent works in. */
  path: string;
  /** The repository's root. */
  root: string;
  branch?: string;
  base?: string;
  baseBranch?: string;
  baseSha?: string;
  /** Paths of the uncommitted changes copied in (`--include-dirty`). */
  includedDirty?: string[];
  /** Set when the repository's hooks run for Baton's git commands (`[git] hooks = true`). */
  gitHooks?: true;
};

/** Folder of the runs' worktrees, below `.baton/`. */
export const WORKTREES_DIR = "worktrees";

/**
 * Makes the run's workspace: for a worktree, `baton/<number>-<slug>` checked out in
 * `.baton/worktrees/<number>-<slug>` from the planned base, with the repository's uncommitted
 * changes copied in when asked.
 */
export async function openWorkspace(plan: WorkspacePlan, run: { number: number; task: string }): Promise<Workspace> {
  if (plan.kind === "in_place") return { kind: "in_place", path: plan.root, root: plan.root };
  const name = `${run.number}-${taskSlug(run.task)}`;
  const path = join(plan.batonDir, WORKTREES_DIR, name);
  const branch = `baton/${name}`;
  // Independent git processes: side by side.
  await Promise.all([ensureIgnored(plan.root, plan.batonDir, path), addWorktree(plan.root, { path, branch, start: plan.baseSha, gitHooks: plan.gitHooks === true })]);
  const workspace: Workspace = { kind: "worktree", path, root: plan.root, branch, base: plan.base, baseSha: plan.baseSha };
  if (plan.baseBranch !== undefined) workspace.baseBranch = plan.baseBranch;
  if (plan.gitHooks === true) workspace.gitHooks = true;
  if (plan.dirty.length > 0) workspace.includedDirty = await copyDirtyChanges(plan.root, path, plan.dirty);
  return workspace;
}

/**
 * Makes git branch `branch` at `start` and checks it out in a new worktree at `path`. The
 * branch first, then the worktree on it (not `worktree add -b`, which leaves the branch behind
 * when the add fails): each step can then be tried again on git's worktree race. `cwd` is the
 * repository or any of its worktrees.
 */
export async function addWorktree(cwd: string, target: { path: string; branch: string; start: string; gitHooks?: boolean }): Promise<void> {
  const { path, branch } = target;
  try {
    await retryingWorktreeRace(() => git(cwd, ["branch", branch, target.start], { hooks: target.gitHooks === true }));
  } catch (error) {
    throw worktreeFailed(path, branch, error, `a branch of that name is left from an earlier run or was made by hand: delete it (git branch -D ${branch}), then run again`);
  }
  try {
    await retryingWorktreeRace(() => git(cwd, ["worktree", "add", "--quiet", path, branch], { hooks: target.gitHooks === true }));
  } catch (error) {
    // The branch was made for this worktree a moment ago and holds nothing of its own.
    await retryingWorktreeRace(() => git(cwd, ["branch", "-D", "--quiet", branch])).catch(() => undefined);
    throw worktreeFailed(path, branch, error, existsSync(path) ? `remove ${path} (left from an earlier run), then run again` : "check the repository with git worktree list, then run again");
  }
}

function worktreeFailed(path: string, branch: string, error: unknown, hint: string): BatonError {
  return new BatonError("worktree_failed", `could not create the worktree ${path} on branch ${branch}: ${gitFailure(error)}`, { hint });
}

/**
 * Copies the repository's uncommitted work into the worktree: tracked changes (staged and
 * not) as one patch against HEAD, untracked files as they are. Nothing is committed here:
 * the changes become part of the run's commit at the end.
 */
async function copyDirtyChanges(root: string, worktree: string, dirty: readonly { path: string; status: string }[]): Promise<string[]> {
  const patch = await gitRaw(root, ["diff", "--binary", "HEAD", "--", ".", ":(exclude).baton"]);
  if (patch.trim() !== "") {
    try {
      await gitRaw(worktree, ["apply", "--binary", "--whitespace=nowarn", "-"], { input: patch });
    } catch (error) {
      throw new BatonError("dirty_copy_failed", `the uncommitted changes do not apply to the base: ${gitFailure(error)}`, {
        hint: "commit them, or start from HEAD (without --base)",
      });
    }
  }
  for (const file of dirty) {
    if (file.status !== "??") continue;
    await mkdir(dirname(join(worktree, file.path)), { recursive: true });
    await cp(join(root, file.path), join(worktree, file.path), { verbatimSymlinks: true, recursive: true });
  }
  return dirty.map((file) => file.path);
}

/** Worktrees must never show up as the user's untracked files: `.baton/.gitignore` covers them. */
async function ensureIgnored(root: string, batonDir: string, path: string): Promise<void> {
  const ignored = await git(root, ["check-ignore", "--quiet", "--no-index", relative(root, path)]).then(
    () => true,
    () => false,
  );
  if (!ignored) await appendFile(join(batonDir, ".gitignore"), `/${WORKTREES_DIR}/\n`);
}
