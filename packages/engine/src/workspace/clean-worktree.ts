import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { git } from "./git-cli.ts";
import { refExists, type RunWorkspaceRecord } from "./run-diff.ts";
import { retryingWorktreeRace } from "./worktree-race.ts";

export type CleanOutcome = {
  /** The worktree folder was there and is now removed. */
  removedWorktree: boolean;
  /** The worktree was kept: it holds changes no commit has (a run whose process died before its commit). */
  keptDirty?: boolean;
  /** What happened to the run's branch. */
  branch: { name: string; action: "deleted" | "kept" | "absent"; unmerged?: number; base?: string } | undefined;
};

/**
 * Removes a finished run's worktree (and anything git still lists for it), then deletes its
 * branch only when every commit on it is already in its base; otherwise the branch is kept.
 * Call it only for a run that has ended: this does not check. `gitHooks` (`[git] hooks`) lets
 * the repository's hooks run for the branch's deletion.
 */
export async function cleanRunWorktree(root: string, record: RunWorkspaceRecord, options: { gitHooks?: boolean } = {}): Promise<CleanOutcome> {
  const workspace = record.workspace;
  if (workspace?.kind !== "worktree") return { removedWorktree: false, branch: undefined };
  let removedWorktree = false;
  if (existsSync(workspace.path) && (await git(workspace.path, ["status", "--porcelain"]).catch(() => "")) !== "") {
    // Never lose what an agent wrote: a run killed before its commit leaves its work here.
    return { removedWorktree: false, keptDirty: true, branch: undefined };
  }
  if (existsSync(workspace.path)) {
    // --force: a finished run's worktree may hold ignored files (build output) git would keep.
    await retryingWorktreeRace(() => git(root, ["worktree", "remove", "--force", workspace.path])).catch(() => rm(workspace.path, { recursive: true, force: true }));
    removedWorktree = true;
  }
  // A run starting meanwhile adds a worktree: these list the worktrees and can lose git's race.
  await retryingWorktreeRace(() => git(root, ["worktree", "prune"]));
  const name = workspace.branch;
  if (name === undefined) return { removedWorktree, branch: undefined };
  if (!(await refExists(root, `refs/heads/${name}`))) return { removedWorktree, branch: { name, action: "absent" } };
  const base = await mergeBase(root, workspace);
  const unmerged = Number(await git(root, ["rev-list", "--count", `${base.ref}..refs/heads/${name}`]));
  if (unmerged > 0) return { removedWorktree, branch: { name, action: "kept", unmerged, base: base.label } };
  await retryingWorktreeRace(() => git(root, ["branch", "-D", "--quiet", name], { hooks: options.gitHooks === true }));
  return { removedWorktree, branch: { name, action: "deleted", base: base.label } };
}

/** The base branch as it is now when it still exists (work may have been merged into it since), else the base commit. */
async function mergeBase(root: string, workspace: NonNullable<RunWorkspaceRecord["workspace"]>): Promise<{ ref: string; label: string }> {
  if (workspace.base !== undefined && (await refExists(root, `refs/heads/${workspace.base}`))) return { ref: `refs/heads/${workspace.base}`, label: workspace.base };
  const sha = workspace.base_sha ?? "HEAD";
  return { ref: sha, label: workspace.base ?? sha.slice(0, 12) };
}
