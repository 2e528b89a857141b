import { identityArgs } from "../workspace/commit-workspace.ts";
import { git, gitFailure, gitRaw } from "../workspace/git-cli.ts";
import type { MergeStrategy } from "../config/delivery-config.ts";

export type MergeRequest = {
  /** The repository (any of its worktrees): where the refs are. */
  root: string;
  /** The run's branch, and the branch it lands in. */
  branch: string;
  base: string;
  strategy: MergeStrategy;
  /** The commit message's first line (the run's task, redacted). */
  subject: string;
  /** The body's line naming the run. */
  runLine: string;
};

/** What delivering a branch came to. Refused and conflicted leave every ref and file as it was. */
export type MergeOutcome =
  | { kind: "merged"; sha: string; upToDate: boolean; worktree?: string | undefined }
  | { kind: "conflicted"; files: string[] }
  | { kind: "refused"; code: "merge_refused" | "not_fast_forward"; message: string; hint: string };

/**
 * Merges `branch` into `base` without touching anybody's uncommitted work. The new commit is
 * made by git's `merge-tree` (no working tree involved, so a conflict changes nothing and
 * names its files), then the base moves to it: in the worktree that has the base checked out
 * (the user's own tree, which must be clean) by a fast-forward, so that tree shows the merged
 * state; elsewhere by a compare-and-swap of the ref. No repository hook runs.
 */
export async function mergeIntoBase(request: MergeRequest): Promise<MergeOutcome> {
  const { root, branch, base } = request;
  const baseSha = await revParse(root, `refs/heads/${base}`);
  if (baseSha === undefined) return refused(`the base branch ${base} does not exist`, `make it, or start the run with --base BRANCH`);
  const branchSha = await revParse(root, `refs/heads/${branch}`);
  if (branchSha === undefined) return refused(`the run's branch ${branch} is gone`, "was it deleted by hand or by baton clean? nothing can be merged");
  const checkout = await worktreeOf(root, base);
  if (checkout !== undefined) {
    const dirty = (await git(checkout, ["status", "--porcelain", "--untracked-files=no"])).split("\n").filter((line) => line !== "");
    if (dirty.length > 0) {
      return refused(`${base} is checked out in ${checkout} with uncommitted changes (${dirty.length} file${dirty.length === 1 ? "" : "s"}), which a merge would have to touch`, `commit or stash them (git stash), then run baton merge again`);
    }
  }
  if (await isAncestor(root, branchSha, baseSha)) return { kind: "merged", sha: baseSha, upToDate: true, worktree: checkout };
  const target = await mergedCommit(request, baseSha, branchSha);
  if (target.kind !== "commit") return target;
  try {
    if (checkout !== undefined) await git(checkout, ["merge", "--ff-only", "--quiet", target.sha]);
    else await git(root, ["update-ref", "-m", `baton: merge ${branch}`, `refs/heads/${base}`, target.sha, baseSha]);
  } catch (error) {
    return refused(`could not move ${base} to the merge: ${gitFailure(error)}`, checkout === undefined ? "try again" : `look at ${checkout} with git status`);
  }
  return { kind: "merged", sha: target.sha, upToDate: false, worktree: checkout };
}

async function mergedCommit(request: MergeRequest, baseSha: string, branchSha: string): Promise<{ kind: "commit"; sha: string } | MergeOutcome> {
  const { root, branch, base } = request;
  if (request.strategy === "ff-only") {
    if (await isAncestor(root, baseSha, branchSha)) return { kind: "commit", sha: branchSha };
    return { kind: "refused", code: "not_fast_forward", message: `${base} has commits that ${branch} lacks: it cannot be fast-forwarded`, hint: "merge with --merge-strategy merge or squash, or rebase the branch" };
  }
  let tree: string;
  try {
    tree = (await git(root, ["merge-tree", "--write-tree", "--name-only", "--no-messages", baseSha, branchSha])).split("\n")[0] ?? "";
  } catch (error) {
    const out = (error as { stdout?: unknown }).stdout;
    const code = (error as { code?: unknown }).code;
    if (code === 1 && typeof out === "string") return { kind: "conflicted", files: [...new Set(out.split("\n").slice(1).filter((line) => line !== ""))] };
    return refused(`git could not merge ${branch} into ${base}: ${gitFailure(error)}`, "is git 2.38 or later installed?");
  }
  const message =
    request.strategy === "squash"
      ? `${request.subject}\n\nSquashed from ${branch}. ${request.runLine}\n`
      : `Merge ${branch} into ${base}: ${request.subject}\n\n${request.runLine}\n`;
  const parents = request.strategy === "squash" ? ["-p", baseSha] : ["-p", baseSha, "-p", branchSha];
  const sha = (await gitRaw(root, [...(await identityArgs(root)), "commit-tree", tree, ...parents, "-F", "-"], { input: message })).trim();
  return { kind: "commit", sha };
}

/** The worktree (the main one or another) that has `branch` checked out, if any. */
async function worktreeOf(root: string, branch: string): Promise<string | undefined> {
  const listed = await git(root, ["worktree", "list", "--porcelain"]);
  let path: string | undefined;
  for (const line of listed.split("\n")) {
    if (line.startsWith("worktree ")) path = line.slice("worktree ".length);
    else if (line === `branch refs/heads/${branch}`) return path;
  }
  return undefined;
}

async function revParse(cwd: string, ref: string): Promise<string | undefined> {
  return git(cwd, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).catch(() => undefined);
}

async function isAncestor(cwd: string, ancestor: string, of: string): Promise<boolean> {
  return git(cwd, ["merge-base", "--is-ancestor", ancestor, of]).then(
    () => true,
    () => false,
  );
}

function refused(message: string, hint: string): MergeOutcome {
  return { kind: "refused", code: "merge_refused", message, hint };
}
