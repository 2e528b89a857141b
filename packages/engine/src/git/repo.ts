import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { BatonError } from "../errors.ts";
import { readRepoStatus, type RepoStatus } from "./repo-status.ts";

const run = promisify(execFile);

/** What a run records about the repository it works in. */
export type RepoInfo = { root: string; branch?: string; sha?: string; dirty: boolean };

async function git(cwd: string, args: string[]): Promise<string> {
  const { stdout } = await run("git", args, { cwd, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim();
}

/** The top of the git work tree holding `cwd`; a directory outside git is a usage error. */
export async function findRepoRoot(cwd: string): Promise<string> {
  try {
    return await git(cwd, ["rev-parse", "--show-toplevel"]);
  } catch {
    throw new BatonError("not_a_git_repo", `${cwd} is not inside a git repository`, {
      hint: "run Baton in a git repository (or create one with `git init`)",
    });
  }
}

/**
 * Branch, HEAD and whether the work tree has uncommitted changes (`.baton/` left out), from
 * `status` when the caller has started reading it (one `git status` serves the run's start),
 * else read here. A repository git cannot describe is recorded as its root alone.
 */
export async function describeRepo(root: string, status: Promise<RepoStatus> = readRepoStatus(root)): Promise<RepoInfo> {
  const read = await status.catch(() => undefined);
  const info: RepoInfo = { root, dirty: (read?.changes.length ?? 0) > 0 };
  if (read?.branch !== undefined) info.branch = read.branch;
  if (read?.sha !== undefined) info.sha = read.sha;
  return info;
}
