import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Big enough for a whole diff of a large change; git's output is never streamed here. */
const GIT_MAX_BUFFER = 256 * 1024 * 1024;

/**
 * Baton's git commands run no repository hook: a hook (one the agent wrote, or one a cloned
 * repository's config points to) would run as Baton, with Baton's environment, when Baton
 * makes the worktree, commits or deletes a branch. `[git] hooks = true` lets them run.
 */
const NO_HOOKS = ["-c", "core.hooksPath=/dev/null"] as const;

/**
 * glibc gives freed memory at the top of the heap back to the system at once (a `brk` down),
 * and git frees zlib's state (about 256 KiB) after every object it writes: `git add` of 1,000
 * new files shrank and grew its heap 2,000 times, each growth paid again in page faults (0.3 s
 * of a 0.45 s `git add` on a virtual machine; 0.06 s with this pad). A megabyte kept at the
 * top of the heap of a process that lives a moment costs nothing. A value the user set wins.
 */
const MALLOC_TOP_PAD = { MALLOC_TOP_PAD_: String(1024 * 1024) } as const;

export type GitOptions = {
  /** Written to git's stdin. */
  input?: string;
  /** True runs the repository's hooks (`[git] hooks`); by default none runs. */
  hooks?: boolean;
  /** Variables set over Baton's own environment for this command. */
  env?: Record<string, string>;
};

/**
 * Runs git with explicit arguments (no shell) in `cwd` and returns its stdout untrimmed,
 * without hooks unless asked. Throws the execFile error (with `stderr`) when git fails.
 */
export async function gitRaw(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  const child = run("git", [...(options.hooks === true ? [] : NO_HOOKS), ...args], { cwd, maxBuffer: GIT_MAX_BUFFER, encoding: "utf8", env: { ...MALLOC_TOP_PAD, ...process.env, ...options.env } });
  if (options.input !== undefined) {
    child.child.stdin?.end(options.input);
  }
  const { stdout } = await child;
  return stdout;
}

/** Like {@link gitRaw}, trimmed. */
export async function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  return (await gitRaw(cwd, args, options)).trim();
}

/** git's own explanation of a failure: the first line of its stderr, without the `fatal: `. */
export function gitFailure(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const text = typeof stderr === "string" && stderr.trim() !== "" ? stderr : error instanceof Error ? error.message : String(error);
  return (text.trim().split("\n")[0] ?? "").replace(/^(fatal|error): /, "");
}

/** NUL-separated fields of `-z` output. */
export function nulFields(text: string): string[] {
  const fields = text.split("\0");
  if (fields.at(-1) === "") fields.pop();
  return fields;
}
