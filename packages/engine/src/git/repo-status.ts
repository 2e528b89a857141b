import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A path with uncommitted changes and how `git status --porcelain` (v1) shows it (`M `, ` D`, `??`, …). */
export type StatusEntry = { path: string; status: string };

/**
 * HEAD and the work tree's changes, from one `git status`: what a run's start needs to know
 * about the repository (the branch and commit it starts from, whether and what is uncommitted).
 */
export type RepoStatus = {
  /** HEAD's commit; absent before the first commit. */
  sha?: string;
  /** HEAD's branch (short name); absent when HEAD is detached. */
  branch?: string;
  /** Tracked changes (staged or not) and untracked files git does not ignore, `.baton/` left out. */
  changes: StatusEntry[];
};

/** Baton's own folder is never the user's work, whether or not git ignores it. */
const BATON_DIR_PREFIX = ".baton/";

/**
 * Reads {@link RepoStatus} with one git process (`git status --porcelain=v2 -z --branch
 * --untracked-files=all`) where a run's start used six (`symbolic-ref`, `rev-parse` and
 * `status`, twice over). Throws the execFile error when git fails.
 */
export async function readRepoStatus(root: string): Promise<RepoStatus> {
  const { stdout } = await run("git", ["status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all"], { cwd: root, maxBuffer: 256 * 1024 * 1024, encoding: "utf8" });
  return parseStatusV2(stdout);
}

/** Fields before the path in each kind of v2 record: ordinary (1), renamed or copied (2), unmerged (u), untracked (?). */
const FIELDS_BEFORE_PATH: Record<string, number> = { "1": 8, "2": 9, u: 10, "?": 1 };

/**
 * Parses `git status --porcelain=v2 -z --branch` output. Each change's status is given as v1
 * shows it (`.` for "unchanged" becomes a space, untracked is `??`), so that a change reads
 * the same wherever Baton names it.
 */
export function parseStatusV2(text: string): RepoStatus {
  const fields = text.split("\0");
  const status: RepoStatus = { changes: [] };
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    if (field.startsWith("# branch.oid ")) {
      const oid = field.slice("# branch.oid ".length);
      if (oid !== "(initial)") status.sha = oid;
      continue;
    }
    if (field.startsWith("# branch.head ")) {
      const head = field.slice("# branch.head ".length);
      if (head !== "(detached)") status.branch = head;
      continue;
    }
    const before = FIELDS_BEFORE_PATH[field[0] ?? ""];
    if (before === undefined) continue;
    // The path may hold spaces: it is everything after the fixed fields.
    let at = -1;
    for (let n = 0; n < before; n += 1) at = field.indexOf(" ", at + 1);
    if (at === -1) continue;
    const path = field.slice(at + 1);
    // A rename or copy is followed by its source path in a field of its own.
    if (field[0] === "2") i += 1;
    if (path.startsWith(BATON_DIR_PREFIX) || path === ".baton") continue;
    status.changes.push({ path, status: field[0] === "?" ? "??" : field.slice(2, 4).replaceAll(".", " ") });
  }
  return status;
}
