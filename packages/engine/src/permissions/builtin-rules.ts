import { isAbsolute, relative, sep } from "node:path";
import { followPathBelow, resolveFolderOnce } from "./follow-path.ts";
import { runsGitPush } from "./git-push-command.ts";
import type { PermissionQuestion } from "./policy.ts";

/** What the built-in rules need to know about the run. */
export type PolicyContext = {
  /** The workspace root (the run's worktree, or the repository in place): edits stay below it. */
  root?: string;
  /** False turns the built-in rules off (`[permissions] builtin_rules = false`). */
  builtinRules?: boolean;
};

/**
 * One question as the built-in rules look at it: `changedPaths` is worked out on first use and
 * then shared by the rules that look at it (one walk of the file system per question).
 */
export type AskedQuestion = { question: PermissionQuestion; context: PolicyContext; changedPaths: () => readonly ChangedPath[] };

type BuiltinRule = { name: string; matches: (asked: AskedQuestion) => boolean };

type ChangedPath = { outside: boolean; parts: string[] };

/** The question as the built-in rules take it (see {@link AskedQuestion}). */
export function askedQuestion(question: PermissionQuestion, context: PolicyContext): AskedQuestion {
  let paths: readonly ChangedPath[] | undefined;
  return { question, context, changedPaths: () => (paths ??= changedPaths(question, context)) };
}

/** Tool kinds that change files. */
const FILE_CHANGING_KINDS = new Set(["edit", "delete", "move"]);

/** Baton's own folder: its config, rules, logs, index and the runs' worktrees. */
const BATON_DIR = ".baton";
/** git's folder (or, in a worktree, the file naming it): hooks and config there run on Baton's next git command. */
const GIT_DIR = ".git";

/**
 * In this order, after the user's rules. `outside-worktree` comes before the two that guard
 * folders: in a worktree (which lives in `.baton/worktrees/`), the repository's `.baton/` and
 * `.git/`, and other runs' worktrees, are all outside the run's workspace, so those two only
 * have to look below it (in place, and the checked-out `.baton/` and `.git` of a worktree).
 */
export const BUILTIN_RULES: readonly BuiltinRule[] = [
  {
    name: "default:no-git-push",
    matches: ({ question }) => question.kind === "execute" && runsGitPush(question.target ?? ""),
  },
  {
    name: "default:outside-worktree",
    matches: (asked) => asked.changedPaths().some((path) => path.outside),
  },
  {
    name: "default:baton-state",
    matches: (asked) => asked.changedPaths().some((path) => path.parts.includes(BATON_DIR)),
  },
  {
    name: "default:git-dir",
    matches: (asked) => asked.changedPaths().some((path) => path.parts.includes(GIT_DIR)),
  },
];

/**
 * Where each path a file-changing call names would land, relative to the workspace: outside
 * it, or the names of the folders below it (lower-cased: on a case-insensitive file system
 * `.GIT` is `.git`). None for other calls, or without a root. The root is resolved once, and
 * the paths below it are followed on from there; a run's root is walked once, and only checked
 * to be the same directory for each later call (see resolveFolderOnce).
 */
function changedPaths(question: PermissionQuestion, context: PolicyContext): ChangedPath[] {
  const root = context.root;
  if (root === undefined || !FILE_CHANGING_KINDS.has(question.kind)) return [];
  const folder = resolveFolderOnce(root);
  const realRoot = folder?.resolved ?? root;
  // Agents often name one file twice (its location and its raw input): each path is walked once.
  const absolutes = new Set((question.paths ?? []).map((path) => (isAbsolute(path) ? path : `${root}${sep}${path}`)));
  return [...absolutes].map((absolute): ChangedPath => {
    const target = folder === undefined ? undefined : followPathBelow(folder, absolute);
    const rel = target === undefined ? undefined : relative(realRoot, target);
    if (rel === undefined || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return { outside: true, parts: [] };
    return { outside: false, parts: rel.toLowerCase().split(sep) };
  });
}
