import { definedFields } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import { readRepoStatus, type RepoStatus } from "../git/repo-status.ts";
import { describeDirty, type DirtyFile } from "./dirty-files.ts";
import { git, gitFailure } from "./git-cli.ts";

/**
 * Where a run will work, decided and checked before the run exists, so that bad input (a base
 * that is not a commit, a dirty tree) changes nothing.
 */
export type WorkspacePlan =
  | { kind: "in_place"; root: string }
  | {
      kind: "worktree";
      root: string;
      batonDir: string;
      /** The ref given with `--base`, else HEAD's branch name (its sha when detached). */
      base: string;
      baseSha: string;
      /** Set when the base is a local branch. */
      baseBranch?: string;
      /** Uncommitted changes to copy into the worktree (`--include-dirty`); empty otherwise. */
      dirty: DirtyFile[];
      /** Set when the repository's hooks run for Baton's git commands (`[git] hooks = true`). */
      gitHooks?: true;
    };

export type WorkspaceOptions = {
  root: string;
  batonDir: string;
  /** A branch, tag or commit to start from instead of HEAD. */
  base?: string;
  includeDirty?: boolean;
  inPlace?: boolean;
  /** Run the repository's hooks for Baton's git commands (`[git] hooks`). */
  gitHooks?: boolean;
  /** The repository's status, when the caller has started reading it (one `git status` serves the run's start); else read here. */
  status?: Promise<RepoStatus>;
};

/** Checks the options against the repository and says where the run will work. */
export async function planWorkspace(options: WorkspaceOptions): Promise<WorkspacePlan> {
  const { root } = options;
  if (options.inPlace) {
    if (options.base !== undefined || options.includeDirty) {
      throw new BatonError("usage", `--in-place cannot be combined with ${options.base !== undefined ? "--base" : "--include-dirty"}`, {
        hint: "--in-place works in the repository as it is; drop one of the options",
      });
    }
    return { kind: "in_place", root };
  }
  const status = options.status ?? readRepoStatus(root);
  const base = options.base === undefined ? headBase(root, await status) : await givenBase(root, options.base);
  const dirty = (await status).changes;
  if (dirty.length > 0 && !options.includeDirty) {
    throw new BatonError("dirty_worktree", `the working tree has uncommitted changes (${describeDirty(dirty)})`, {
      hint: "commit or stash them first, or pass --include-dirty to copy them into the run's worktree (they become part of the run's commit)",
    });
  }
  return definedFields({ kind: "worktree" as const, root, batonDir: options.batonDir, ...base, dirty: options.includeDirty ? dirty : [], gitHooks: options.gitHooks === true ? (true as const) : undefined });
}

function headBase(root: string, status: RepoStatus): { base: string; baseSha: string; baseBranch?: string } {
  const sha = status.sha;
  if (sha === undefined) {
    throw new BatonError("no_commits", `the repository at ${root} has no commit to start a worktree from`, {
      hint: "commit something first, or run with --in-place",
    });
  }
  const branch = status.branch;
  return branch === undefined ? { base: sha, baseSha: sha } : { base: branch, baseSha: sha, baseBranch: branch };
}

async function givenBase(root: string, ref: string): Promise<{ base: string; baseSha: string; baseBranch?: string }> {
  // A ref starting with "-" would be read as an option by git.
  const sha = ref.startsWith("-") || ref.trim() === "" ? "" : await git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).catch(() => "");
  if (sha === "") {
    throw new BatonError("bad_base", `--base ${ref} is not a commit in this repository`, {
      hint: "pass a branch, tag or commit that exists (git branch --list shows the branches)",
    });
  }
  const isBranch = await git(root, ["show-ref", "--verify", "--quiet", `refs/heads/${ref}`]).then(
    () => true,
    (error: unknown) => {
      if ((error as { code?: unknown }).code === 1) return false;
      throw new BatonError("git_failed", `git show-ref failed: ${gitFailure(error)}`);
    },
  );
  return isBranch ? { base: ref, baseSha: sha, baseBranch: ref } : { base: ref, baseSha: sha };
}

/**
 * A fork's workspace: a worktree of its own on a new branch at `sha` (another run's checkpoint
 * commit). The repository's uncommitted changes play no part in it, so they do not stop it.
 */
export async function planForkWorkspace(options: { root: string; batonDir: string; sha: string; gitHooks?: boolean }): Promise<WorkspacePlan> {
  const sha = /^[0-9a-f]{7,64}$/i.test(options.sha) ? await git(options.root, ["rev-parse", "--verify", "--quiet", `${options.sha}^{commit}`]).catch(() => "") : "";
  if (sha === "") {
    throw new BatonError("bad_base", `commit ${options.sha} is no longer in this repository`, { hint: "was its branch deleted and garbage-collected? fork at a later checkpoint, or start a new run" });
  }
  return definedFields({ kind: "worktree" as const, root: options.root, batonDir: options.batonDir, base: sha, baseSha: sha, dirty: [], gitHooks: options.gitHooks === true ? (true as const) : undefined });
}
