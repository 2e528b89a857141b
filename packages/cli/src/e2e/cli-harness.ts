// End-to-end fixtures for the `baton` command: real git repositories (made with testTempDir, so
// the suite validates every log they end up holding), the CLI started as a user starts it (a
// child process on bin.ts), and the real scripted fake agent. Everything waits on conditions
// with generous timeouts; nothing relies on how long a step takes.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { appendFile, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { TranscriptRecord } from "@baton/engine";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import type { ScriptInput } from "@baton/testkit";

/** The CLI's entry point, as `npm run baton` and `bin/baton.js` start it. */
export const BATON_BIN = fileURLToPath(new URL("../bin.ts", import.meta.url));

/** Resolves Baton's packages to their sources (the checkout's export condition, see .npmrc). */
const SOURCE_CONDITION_FLAG = "--conditions=@baton/source";

/** The launcher users start (`baton` on PATH, `npm run baton`): it re-executes Baton on Node 24 from an older Node. */
export const LAUNCHER_BIN = fileURLToPath(new URL("../../bin/baton.js", import.meta.url));

/** Longest one CLI command may take before the test gives up on it (a loaded 2-core CI box). */
export const COMMAND_TIMEOUT_MS = 90_000;
/** Longest a test waits for something that should happen soon: an event, a line, a process exit. */
export const WAIT_TIMEOUT_MS = 45_000;
/** How often a condition is looked at again. */
const POLL_MS = 50;

/** CI machines have no git identity; commits in test repositories need one. */
export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "Baton Test",
  GIT_AUTHOR_EMAIL: "test@baton.invalid",
  GIT_COMMITTER_NAME: "Baton Test",
  GIT_COMMITTER_EMAIL: "test@baton.invalid",
} as const;

/**
 * The environment a test starts baton with: only what git, sh and node need (NODE_OPTIONS: the
 * checkout's sources, see .npmrc), plus `extra`.
 * Not the test runner's whole environment: a secret-looking variable there (SSH_AUTH_SOCK, a CI
 * token) would turn on redaction, and FORCE_COLOR would put escapes in the human view.
 */
export function cliEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "LANG", "TMPDIR", "NODE_OPTIONS"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  // Tests run baton with no terminal, where a run needs a timeout; tests of that refusal unset it.
  return { ...env, ...GIT_IDENTITY, GIT_CONFIG_NOSYSTEM: "1", BATON_TIMEOUT: "10m", ...extra };
}

const execFileAsync = promisify(execFile);

export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await execFileAsync("git", args, { cwd, env: cliEnv() });
  return stdout;
}

/**
 * A git repository with one commit (a README), and `.baton/` made by `baton init` unless
 * `init` is false.
 */
export async function makeRepo(prefix: string, options: { init?: boolean } = {}): Promise<string> {
  const repo = await testTempDir(prefix);
  await git(repo, "init", "-q", "-b", "main");
  await writeFile(join(repo, "README.md"), "# sample\n");
  await git(repo, "add", "README.md");
  await git(repo, "commit", "-q", "-m", "Initial commit");
  if (options.init !== false) {
    const init = await runBaton(repo, ["init"]);
    if (init.code !== 0) throw new Error(`baton init failed in ${repo}: ${init.stderr}`);
  }
  return repo;
}

/**
 * Writes a fake-agent script into the repository and returns its absolute path. The script is
 * a fixture, not the user's work: it is listed in `.git/info/exclude`, so the repository stays
 * clean and a run in its own worktree is not refused as dirty.
 */
export async function writeScript(repo: string, name: string, script: ScriptInput): Promise<string> {
  const path = join(repo, name);
  await writeFile(path, `${JSON.stringify(script, null, 2)}\n`);
  await appendFile(join(repo, ".git", "info", "exclude"), `/${name}\n`);
  return path;
}

/** The `workspace.ready` path of a run: where its agent worked (its worktree, or the repository). */
export async function workspacePath(repo: string, runId: string): Promise<string> {
  const ready = (await readEvents(repo, runId)).find((event) => event.type === "workspace.ready");
  const path = (ready?.data as { path?: unknown } | undefined)?.path;
  if (typeof path !== "string") throw new Error(`run ${runId} has no workspace.ready with a path`);
  return path;
}

export type CliResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** A `baton` process started in the background: its output so far, and its end. */
export class BatonProcess {
  readonly child: ChildProcess;
  /** Settles when the process has exited and its output is closed. */
  readonly done: Promise<CliResult>;
  #stdout = "";
  #stderr = "";

  constructor(cwd: string, args: readonly string[], env: Record<string, string>, options: StartOptions = {}) {
    // BATON_BIN is a source file: its imports of Baton's packages need their sources too, whatever `env` holds.
    const command = options.launcherNode === undefined ? [process.execPath, SOURCE_CONDITION_FLAG, BATON_BIN] : [options.launcherNode, LAUNCHER_BIN];
    const child = spawn(command[0] as string, [...command.slice(1), ...args], {
      cwd,
      env,
      stdio: [options.stdin === true ? "pipe" : "ignore", "pipe", "pipe"],
      detached: options.ownGroup === true,
    });
    this.child = child;
    child.stdout?.setEncoding("utf8").on("data", (text: string) => (this.#stdout += text));
    child.stderr?.setEncoding("utf8").on("data", (text: string) => (this.#stderr += text));
    this.done = new Promise((resolve, reject) => {
      // A hung command must fail its test, not the whole suite's time budget.
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        reject(new Error(`baton ${args.join(" ")} did not finish in ${COMMAND_TIMEOUT_MS} ms; stdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`));
      }, COMMAND_TIMEOUT_MS);
      child.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout: this.#stdout, stderr: this.#stderr });
      });
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get stdout(): string {
    return this.#stdout;
  }

  get stderr(): string {
    return this.#stderr;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Waits until stdout satisfies `predicate`; fails early if the process ends first. */
  async waitForStdout(what: string, predicate: (stdout: string) => boolean): Promise<void> {
    await waitFor(what, () => {
      if (predicate(this.#stdout)) return true;
      if (!this.running) throw new Error(`baton exited before ${what}; stdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`);
      return false;
    });
  }

  /** Kills the process if it still runs (test cleanup). */
  kill(): void {
    if (this.running) this.child.kill("SIGKILL");
  }
}

/** The line `baton serve` prints once it listens: its URL, with the port and the token. */
const SERVE_URL_LINE = /^\s*http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)$/m;

/** Where a `baton serve` listens, and how to call it. */
export type ServeAddress = { base: string; port: string; token: string; auth: { authorization: string } };

/** Waits for `server` (a `baton serve`) to print its URL, and reads its address and token from it. */
export async function servedAt(server: BatonProcess): Promise<ServeAddress> {
  await server.waitForStdout("the server's URL", (stdout) => SERVE_URL_LINE.test(stdout));
  const [, port, token] = SERVE_URL_LINE.exec(server.stdout) as RegExpExecArray & [string, string, string];
  return { base: `http://127.0.0.1:${port}`, port, token, auth: { authorization: `Bearer ${token}` } };
}

export type StartOptions = {
  env?: Record<string, string>;
  /** Start bin/baton.js with this Node (an older one makes it re-execute Baton on Node 24), not bin.ts on this one. */
  launcherNode?: string;
  /** In a process group of its own, as a job a shell starts: a signal sent to the group reaches all its processes. */
  ownGroup?: boolean;
  /** A pipe on its stdin (`child.stdin`) for lines a person would type; none by default. */
  stdin?: boolean;
};

export function startBaton(cwd: string, args: readonly string[], options: StartOptions = {}): BatonProcess {
  return new BatonProcess(cwd, args, options.env ?? cliEnv(), options);
}

/** Runs `baton ARGS` in `cwd` to completion. */
export function runBaton(cwd: string, args: readonly string[], options: { env?: Record<string, string> } = {}): Promise<CliResult> {
  return startBaton(cwd, args, options).done;
}

/** Polls `condition` until it holds; throws naming `what` after WAIT_TIMEOUT_MS. */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = WAIT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Complete lines of NDJSON text, parsed; a last line without its newline is not complete yet. */
export function parseNdjson<T = unknown>(text: string): T[] {
  const lines = text.split("\n");
  lines.pop();
  return lines.filter((line) => line.length > 0).map((line) => JSON.parse(line) as T);
}

/** The lines of a text, without the empty string after its last newline. */
export function linesOf(text: string): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}

export function runsDir(repo: string): string {
  return join(repo, ".baton", "runs");
}

/** The run directories of a repository (run ids), sorted: ids are time-ordered ULIDs. */
export async function runIds(repo: string): Promise<string[]> {
  return (await readdir(runsDir(repo))).sort();
}

/** The id of the only run in a repository. */
export async function onlyRunId(repo: string): Promise<string> {
  const ids = await runIds(repo);
  if (ids.length !== 1) throw new Error(`expected one run in ${repo}, found ${ids.length}: ${ids.join(", ")}`);
  return ids[0] as string;
}

export function eventsFile(repo: string, runId: string): string {
  return join(runsDir(repo), runId, "events.jsonl");
}

/** The raw text of a run's events.jsonl. */
export async function readEventsText(repo: string, runId: string): Promise<string> {
  return readFile(eventsFile(repo, runId), "utf8");
}

/** A run's durable events, as far as they are written (complete lines only). */
export async function readEvents(repo: string, runId: string): Promise<Envelope[]> {
  try {
    return parseNdjson<Envelope>(await readEventsText(repo, runId));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/** Waits until a run's log holds an event matching `predicate`, and returns it. */
export async function waitForEvent(repo: string, runId: string, what: string, predicate: (event: Envelope) => boolean): Promise<Envelope> {
  let found: Envelope | undefined;
  await waitFor(`${what} in the log of ${runId}`, async () => {
    found = (await readEvents(repo, runId)).find(predicate);
    return found !== undefined;
  });
  return found as Envelope;
}

/** Waits until the repository has exactly one run directory and returns its id. */
export async function waitForOnlyRun(repo: string): Promise<string> {
  await waitFor(`a run directory in ${repo}`, async () => (await runIds(repo).catch(() => [])).length > 0);
  return onlyRunId(repo);
}

/** The raw bytes of a run's acp.jsonl. */
export async function readTranscriptText(repo: string, runId: string): Promise<string> {
  return readFile(join(runsDir(repo), runId, "acp.jsonl"), "utf8");
}

/** The records of a run's acp.jsonl (the raw ACP transcript, redacted). */
export async function readTranscript(repo: string, runId: string): Promise<TranscriptRecord[]> {
  return parseNdjson<TranscriptRecord>(await readTranscriptText(repo, runId));
}

/** The `session/update` payloads the agent sent, in wire order. */
export function sessionUpdates(records: readonly TranscriptRecord[]): Array<Record<string, unknown>> {
  const updates: Array<Record<string, unknown>> = [];
  for (const record of records) {
    const msg = record.msg as { method?: unknown; params?: { update?: Record<string, unknown> } } | undefined;
    if (record.dir === "recv" && msg?.method === "session/update" && msg.params?.update) updates.push(msg.params.update);
  }
  return updates;
}

export function eventsOfType<T extends Record<string, unknown> = Record<string, unknown>>(events: readonly Envelope[], type: string): Array<Envelope & { data: T }> {
  return events.filter((event) => event.type === type) as Array<Envelope & { data: T }>;
}

export * from "./process-probe.ts";
