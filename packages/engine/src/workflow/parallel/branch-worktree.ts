import { existsSync } from "node:fs";
import { definedFields } from "@baton/protocol/core";
import { BatonError } from "../../errors.ts";
import { cleanRunWorktree, type CleanOutcome } from "../../workspace/clean-worktree.ts";
import { git, gitFailure } from "../../workspace/git-cli.ts";
import { addWorktree, type Workspace } from "../../workspace/open-workspace.ts";
import { refExists } from "../../workspace/run-diff.ts";
import { retryingWorktreeRace } from "../../workspace/worktree-race.ts";

/** Where a branch works: its worktree beside the run's (`<run worktree>--<branch>`) on git branch `<run branch>--<branch>`. */
export function branchWorktreeNames(run: Workspace, branch: string): { path: string; gitBranch: string } {
  return { path: `${run.path}--${branch}`, gitBranch: `${run.branch ?? "baton/run"}--${branch}` };
}

/**
 * The branch's worktree, branched from the run's branch at `baseSha`. A branch that ran before
 * (a fan-out resumed after a crash) gets its worktree back: the same folder when it is still
 * there, else a new one on its git branch, so it goes on from its last commit.
 */
export async function openBranchWorktree(run: Workspace, branch: string, baseSha: string): Promise<Workspace> {
  const { path, gitBranch } = branchWorktreeNames(run, branch);
  const workspace: Workspace = { kind: "worktree", path, root: run.root, branch: gitBranch, baseSha };
  if (run.branch !== undefined) workspace.base = run.branch;
  if (run.gitHooks === true) workspace.gitHooks = true;
  if (existsSync(path) && (await git(path, ["symbolic-ref", "--quiet", "--short", "HEAD"]).catch(() => "")) === gitBranch) return workspace;
  if (!(await refExists(run.path, `refs/heads/${gitBranch}`))) {
    await addWorktree(run.path, { path, branch: gitBranch, start: baseSha, gitHooks: run.gitHooks === true });
    return workspace;
  }
  // The folder went away (or was never finished): git may still list it.
  await retryingWorktreeRace(() => git(run.path, ["worktree", "prune"]));
  try {
    await retryingWorktreeRace(() => git(run.path, ["worktree", "add", "--quiet", path, gitBranch], { hooks: run.gitHooks === true }));
  } catch (error) {
    throw new BatonError("worktree_failed", `could not check out branch ${gitBranch} in ${path}: ${gitFailure(error)}`, { hint: `remove ${path}, or check the repository with git worktree list, then resume the run` });
  }
  return workspace;
}

/**
 * Removes a branch's worktree once its fan-in is done, and its git branch when every commit on
 * it is in the run's branch; a branch with unmerged work (a conflict, a failure) is kept.
 */
export async function removeBranchWorktree(run: Workspace, branch: { path: string; gitBranch: string; baseSha?: string | undefined }): Promise<CleanOutcome> {
  const workspace = definedFields({ kind: "worktree", path: branch.path, branch: branch.gitBranch, base: run.branch, base_sha: branch.baseSha });
  return cleanRunWorktree(run.path, { workspace }, { gitHooks: run.gitHooks === true });
}
