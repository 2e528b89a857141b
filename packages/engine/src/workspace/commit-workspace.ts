import { git, gitRaw, nulFields } from "./git-cli.ts";
import type { Workspace } from "./open-workspace.ts";

export type CommittedFile = { path: string; change: "added" | "modified" | "deleted" | "renamed"; from?: string };
export type WorkspaceCommit = { sha: string; branch: string; message: string; files: CommittedFile[] };

/** Longest first line of a commit message made from a task: what `git log --oneline` shows well. */
const SUBJECT_CHARS = 72;

/**
 * From this many changed files on, `git add` writes the new objects into one pack instead of a
 * loose file each: git's own line between the two (`transfer.unpackLimit`, 100: a fetch of
 * fewer objects is kept loose, of more as a pack). A loose object is a file created in
 * `.git/objects/` (about half a millisecond each on a journaling file system that other
 * writers keep busy: 0.6 s for 1,000 small files), the pack two files and their fsync.
 */
export const PACKED_ADD_FILES = 100;

/**
 * `git add` options that stream every blob into one pack (git's bulk check-in, which it uses
 * for files above `core.bigFileThreshold`): only for this command, so that later repacks
 * delta-compress these objects as any others. A file git must convert (a clean filter, line
 * endings) still goes through the conversion and is stored loose.
 */
const PACKED_ADD = ["-c", "core.bigFileThreshold=1"] as const;

/** Used only where git has no identity configured: a commit needs an author. */
export const FALLBACK_IDENTITY = { name: "Baton", email: "baton@localhost" } as const;

/**
 * Commits everything in the worktree (`git add -A`) on the run's branch: first line from the
 * task, the body naming the run. Returns undefined when nothing changed (no commit is made).
 * A change of {@link PACKED_ADD_FILES} files or more is added as one pack.
 */
export async function commitWorkspace(workspace: Workspace, run: { runId: string; number: number; task: string }): Promise<WorkspaceCommit | undefined> {
  const cwd = workspace.path;
  // What `git add -A` will take: changes staged or not, and untracked files git does not ignore.
  // The identity is read meanwhile: each git process here is a few milliseconds of the run's end.
  const identity = identityArgs(cwd);
  const changed = nulFields(await gitRaw(cwd, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"])).length;
  if (changed === 0) return undefined;
  await git(cwd, [...(changed >= PACKED_ADD_FILES ? PACKED_ADD : []), "add", "-A"]);
  const subject = commitSubject(run.task);
  const message = `${subject}\n\nBaton run ${run.runId} (run ${run.number}).\n`;
  try {
    // Hooks are checks on hand-made commits; the run's record must not depend on them. Even with
    // `[git] hooks = true`, pre-commit and commit-msg are skipped (the others run).
    await git(cwd, [...(await identity), "commit", "--quiet", "--no-verify", "-F", "-"], { input: message, hooks: workspace.gitHooks === true });
  } catch (error) {
    // A change git shows but `add` stages nothing of (a submodule's own uncommitted work): no commit.
    if (await nothingStaged(cwd)) return undefined;
    throw error;
  }
  // The commit's id, then what it changed against its parent: one process for both.
  const [sha = "", ...changes] = nulFields(await gitRaw(cwd, ["diff-tree", "-r", "-z", "-M", "--name-status", "--root", "HEAD"]));
  return { sha, branch: workspace.branch ?? "", message: subject, files: parseNameStatus(changes) };
}

/** True when the index holds nothing to commit (`git diff --cached --quiet` exits 0). */
async function nothingStaged(cwd: string): Promise<boolean> {
  return gitRaw(cwd, ["diff", "--cached", "--quiet", "HEAD"]).then(
    () => true,
    () => false,
  );
}

/** The first non-empty line of the task, cut to {@link SUBJECT_CHARS}. */
export function commitSubject(task: string): string {
  const line = task.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "Baton run";
  return line.length > SUBJECT_CHARS ? `${line.slice(0, SUBJECT_CHARS - 1)}…` : line;
}

/**
 * The user's identity when git has one (config or environment), else Baton's. One `git config`
 * reads both names (a checkpoint commit after every stage visit pays for each git process);
 * as with `git config user.name`, the last value of a name wins, and an empty one is none.
 */
export async function identityArgs(cwd: string): Promise<string[]> {
  const listed = await git(cwd, ["config", "--get-regexp", "^user\\.(name|email)$"]).catch(() => "");
  const values = new Map<string, string>();
  for (const line of listed.split("\n")) {
    const space = line.indexOf(" ");
    values.set((space === -1 ? line : line.slice(0, space)).toLowerCase(), space === -1 ? "" : line.slice(space + 1));
  }
  const args: string[] = [];
  if ((values.get("user.name") ?? "") === "") args.push("-c", `user.name=${FALLBACK_IDENTITY.name}`);
  if ((values.get("user.email") ?? "") === "") args.push("-c", `user.email=${FALLBACK_IDENTITY.email}`);
  return args;
}

/** The fields of `--name-status -z -M` output (`M\0path\0`, `R100\0old\0new\0`) as committed files. */
function parseNameStatus(fields: readonly string[]): CommittedFile[] {
  const files: CommittedFile[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const status = fields[i] ?? "";
    const letter = status[0];
    if (letter === "R") {
      const from = fields[i + 1] ?? "";
      const path = fields[i + 2] ?? "";
      files.push({ path, change: "renamed", from });
      i += 2;
      continue;
    }
    const path = fields[i + 1] ?? "";
    i += 1;
    if (letter === "C") {
      // A copy has its source first; the new file is the second path.
      files.push({ path: fields[i + 1] ?? path, change: "added" });
      i += 1;
    } else files.push({ path, change: letter === "A" ? "added" : letter === "D" ? "deleted" : "modified" });
  }
  return files;
}
