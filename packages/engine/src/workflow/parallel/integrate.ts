import { BatonError } from "../../errors.ts";
import { identityArgs } from "../../workspace/commit-workspace.ts";
import { git, gitFailure, gitRaw, nulFields } from "../../workspace/git-cli.ts";
import type { Workspace } from "../../workspace/open-workspace.ts";

/** What merging one branch into the run's branch came to. */
export type MergeResult =
  /** A merge commit on the run's branch. */
  | { kind: "merged"; sha: string }
  /** Nothing to merge: the branch's commits are in the run's branch already (a fan-in run again after a crash). */
  | { kind: "empty"; sha: string }
  /** The merge was aborted: the run's branch is as it was. */
  | { kind: "conflicted"; files: string[] };

/**
 * Merges `sha` (a branch's head) into the run's branch in its worktree with `git merge
 * --no-ff`: one merge commit per branch, with the user's git identity or Baton's, and no
 * repository hook (pre-merge-commit and commit-msg are skipped even with `[git] hooks`, as
 * for Baton's other commits). A conflict aborts the merge (`git merge --abort`) and names the
 * files in conflict; any other refusal is a BatonError, the worktree left as it was.
 */
export async function mergeBranch(workspace: Workspace, branch: { sha: string; message: string }): Promise<MergeResult> {
  const cwd = workspace.path;
  if (await isAncestor(cwd, branch.sha)) return { kind: "empty", sha: await git(cwd, ["rev-parse", "HEAD"]) };
  try {
    await git(cwd, [...(await identityArgs(cwd)), "merge", "--no-ff", "--no-verify", "--quiet", "-m", branch.message, branch.sha], { hooks: workspace.gitHooks === true });
    return { kind: "merged", sha: await git(cwd, ["rev-parse", "HEAD"]) };
  } catch (error) {
    const files = nulFields(await gitRaw(cwd, ["diff", "--name-only", "--diff-filter=U", "-z"]).catch(() => ""));
    await abortUnfinishedMerge(workspace);
    if (files.length > 0) return { kind: "conflicted", files };
    throw new BatonError("merge_failed", `could not merge ${branch.sha.slice(0, 12)} into ${workspace.branch ?? "the run's branch"}: ${gitFailure(error)}`, { hint: `look at ${cwd} with git status` });
  }
}

/**
 * Aborts a merge left half done (a process killed in the middle of one), so the run's worktree
 * is back at its last commit before anything else touches it. True when there was one.
 */
export async function abortUnfinishedMerge(workspace: Workspace): Promise<boolean> {
  const merging = await git(workspace.path, ["rev-parse", "-q", "--verify", "MERGE_HEAD"]).then(
    () => true,
    () => false,
  );
  if (merging) await git(workspace.path, ["merge", "--abort"]);
  return merging;
}

async function isAncestor(cwd: string, sha: string): Promise<boolean> {
  return git(cwd, ["merge-base", "--is-ancestor", sha, "HEAD"]).then(
    () => true,
    () => false,
  );
}
