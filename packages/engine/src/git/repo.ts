import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { BatonError } from "../errors.ts";

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

/** Branch, HEAD and whether the work tree has uncommitted changes. */
export async function describeRepo(root: string): Promise<RepoInfo> {
  const info: RepoInfo = { root, dirty: false };
  const [branch, sha, status] = await Promise.all([
    git(root, ["symbolic-ref", "--quiet", "--short", "HEAD"]).catch(() => ""),
    git(root, ["rev-parse", "--verify", "--quiet", "HEAD"]).catch(() => ""),
    git(root, ["status", "--porcelain", "--untracked-files=normal"]).catch(() => ""),
  ]);
  if (branch) info.branch = branch;
  if (sha) info.sha = sha;
  info.dirty = status
    .split("\n")
    .some((line) => line.length > 0 && !line.slice(3).startsWith(".baton/"));
  return info;
}
