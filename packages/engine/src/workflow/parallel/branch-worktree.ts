import { existsSync } from "node:fs";
import { definedFields, type FanOutState } from "@baton/protocol/core";
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

/** A branch of a finished run's fan-out, as `baton clean` left it. */
export type BranchCleanOutcome = CleanOutcome & { fanOut: string; name: string; path: string };

/**
 * Removes the worktrees every fan-out of a finished run left behind: a fan-in removes its
 * branches' worktrees itself, but a run that failed, was cancelled or was killed before its
 * fan-in leaves them. A git branch holding work its run's branch lacks is kept, like a run's own.
 * Call it only for a run that has ended.
 */
export async function cleanBranchWorktrees(
  root: string,
  run: { workspace?: { kind: string; path: string; branch?: string } | undefined; workflow: { fan_outs: readonly FanOutState[] } },
  options: { gitHooks?: boolean } = {},
): Promise<BranchCleanOutcome[]> {
  const workspace = run.workspace;
  if (workspace?.kind !== "worktree") return [];
  const outcomes: BranchCleanOutcome[] = [];
  for (const fanOut of run.workflow.fan_outs) {
    for (const branch of fanOut.branches) {
      const names = branchWorktreeNames(definedFields({ kind: "worktree" as const, root, path: workspace.path, branch: workspace.branch }), branch.branch);
      const path = branch.path ?? names.path;
      const gitBranch = branch.git_branch ?? names.gitBranch;
      if (!existsSync(path) && !(await refExists(root, `refs/heads/${gitBranch}`))) continue;
      const record = { workspace: definedFields({ kind: "worktree" as const, path, branch: gitBranch, base: workspace.branch, base_sha: fanOut.base_sha }) };
      const outcome = await cleanRunWorktree(root, record, options);
      outcomes.push({ ...outcome, fanOut: `${fanOut.stage}@${fanOut.visit}`, name: branch.branch, path });
    }
  }
  return outcomes;
}
