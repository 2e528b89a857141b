import { existsSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import type { PermissionQuestion } from "./policy.ts";

/** What the built-in rules need to know about the run. */
export type PolicyContext = {
  /** The workspace root (the run's worktree, or the repository in place): edits stay below it. */
  root?: string;
  /** False turns the built-in rules off (`[permissions] builtin_rules = false`). */
  builtinRules?: boolean;
};

type BuiltinRule = { name: string; matches: (question: PermissionQuestion, context: PolicyContext) => boolean };

/** Tool kinds that change files. */
const FILE_CHANGING_KINDS = new Set(["edit", "delete", "move"]);

/**
 * `git push` anywhere in a command: at its start, after `&&`, `||`, `;`, `|`, a subshell or a
 * quote (`sh -c "git push"`), with git's global options (`-C dir`, `-c k=v`, `--no-pager`) in
 * between. A mention inside an argument (`echo "git push"`) is denied too: the policy would
 * rather refuse an echo than let a push through.
 */
const GIT_PUSH = /(?:^|[\s;&|(`'"])git(?:\s+(?:-[Cc]\s+\S+|--?[A-Za-z][\w-]*(?:=\S*)?))*\s+push(?=$|[\s;&|)`'"])/;

export const BUILTIN_RULES: readonly BuiltinRule[] = [
  {
    name: "default:no-git-push",
    matches: (question) => question.kind === "execute" && GIT_PUSH.test(question.target ?? ""),
  },
  {
    name: "default:outside-worktree",
    matches: (question, context) =>
      context.root !== undefined && FILE_CHANGING_KINDS.has(question.kind) && (question.paths ?? []).some((path) => !isInside(context.root as string, path)),
  },
];

/**
 * Whether `path` (relative ones resolved against `root`) stays below `root`, `..` resolved.
 * Symbolic links are followed as far as the path exists, so a link inside that points
 * outside does not pass.
 */
export function isInside(root: string, path: string): boolean {
  const target = resolve(root, path);
  if (!lexicallyInside(root, target) && !lexicallyInside(realOrSelf(root), target)) return false;
  return lexicallyInside(realOrSelf(root), realExistingPrefix(target));
}

function lexicallyInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The real path of the nearest existing ancestor, with the part that does not exist yet appended. */
function realExistingPrefix(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  return resolve(realOrSelf(existing), relative(existing, path));
}
