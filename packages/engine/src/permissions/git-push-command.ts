import { basename } from "node:path";
import { parse, type ParseEntry } from "shell-quote";

/**
 * `git push` at a word boundary, with git's global options (`-C dir`, `-c k=v`, `--no-pager`)
 * in between: at the start, after `&&`, `||`, `;`, `|`, a subshell or a quote (`sh -c "git
 * push"`). A mention inside an argument (`echo "git push"`) matches too: the policy would rather
 * refuse an echo than let a push through. This reads the text as written; {@link runsGitPush}
 * adds a reading of the words a shell would see.
 */
const GIT_PUSH_TEXT = /(?:^|[\s;&|(`'"])git(?:\s+(?:-[Cc]\s+\S+|--?[A-Za-z][\w-]*(?:=\S*)?))*\s+push(?=$|[\s;&|)`'"])/;

/** git's subcommands that send commits to a remote. */
const PUSHING_SUBCOMMANDS = new Set(["push", "send-pack"]);
/** The same, run as the programs in git's exec-path (`$(git --exec-path)/git-push`). */
const PUSHING_PROGRAMS = new Set(["git-push", "git-send-pack"]);
/** git's global options whose value is the next word (`-C dir`, `--git-dir dir`). */
const OPTIONS_WITH_VALUE = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"]);
/** How deep quoted words are read again as commands (`sh -c 'bash -c "git push"'`). */
const MAX_NESTING = 4;
/** Characters that make a quoted word worth reading as a command of its own. */
const SHELL_SYNTAX = /[\s;&|()`$<>]/;

/**
 * Whether a shell command pushes with git as far as its text shows: the text itself, and its
 * words as a shell splits them (quotes and backslashes removed: `"git" push`, `g\it push`,
 * `git pu''sh`, `/usr/bin/git push`), in every command of a list or pipeline (`;`, `&&`, `|`,
 * `$(…)`, backquotes), after wrappers (`env git push`, `sudo git push`), with git's global
 * options before the subcommand, and inside quoted words that are commands again (`sh -c '…'`,
 * `eval "…"`). What only running it shows is out of reach: a variable (`$GIT push`), an alias,
 * a script. The sandbox is the boundary; this rule is a guard rail.
 */
export function runsGitPush(command: string): boolean {
  return GIT_PUSH_TEXT.test(command) || wordsPush(command, 0);
}

function wordsPush(command: string, depth: number): boolean {
  let entries: ParseEntry[];
  try {
    // Backquotes end a command like `;` does; variables stay as written (their values are unknown here).
    entries = parse(command.replaceAll("`", " ; "), (name) => `$${name}`);
  } catch {
    return false;
  }
  let words: string[] = [];
  for (const entry of entries) {
    if (typeof entry === "string") {
      words.push(entry);
      if (depth < MAX_NESTING && SHELL_SYNTAX.test(entry) && wordsPush(entry, depth + 1)) return true;
    } else if ("op" in entry && entry.op === "glob") {
      words.push(entry.pattern);
    } else if ("op" in entry) {
      // An operator (`;`, `&&`, `|`, `(`, `$(`, `>`…) ends one simple command.
      if (simpleCommandPushes(words)) return true;
      words = [];
    }
  }
  return simpleCommandPushes(words);
}

/** Any word that is git (by any path) followed, past git's global options, by a pushing subcommand. */
function simpleCommandPushes(words: readonly string[]): boolean {
  for (let i = 0; i < words.length; i += 1) {
    const program = basename(words[i] as string);
    if (PUSHING_PROGRAMS.has(program)) return true;
    if (program !== "git") continue;
    let j = i + 1;
    while (j < words.length && (words[j] as string).startsWith("-")) j += OPTIONS_WITH_VALUE.has(words[j] as string) ? 2 : 1;
    if (PUSHING_SUBCOMMANDS.has(words[j] ?? "")) return true;
  }
  return false;
}
