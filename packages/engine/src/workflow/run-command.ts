import { spawn } from "node:child_process";

/** How long a command gets to end after SIGTERM before its process group is killed. */
const KILL_GRACE_MS = 2_000;
/** Output kept in memory per command; the rest is counted, not kept (the trace store caps files too). */
const MAX_KEPT_CHARS = 1_000_000;

export type CommandRun = {
  /** The shell script, run by `sh -c` as written: never built from an agent's words. */
  script: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number | undefined;
  signal: AbortSignal;
};

export type CommandResult = {
  /** The exit code; null when a signal ended it (a timeout, a cancel). */
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Standard output and error as they came, interleaved; cut at {@link MAX_KEPT_CHARS}. */
  output: string;
  outputChars: number;
  durationMs: number;
  /** The shell could not be started. */
  spawnError?: string;
};

/**
 * Runs one command stage's script in a shell of its own process group, so that a timeout or
 * a cancel ends everything it started. Resolves when the shell has exited; never rejects.
 */
export function runCommand(run: CommandRun): Promise<CommandResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    let output = "";
    let outputChars = 0;
    let timedOut = false;
    let cancelled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const child = spawn("sh", ["-c", run.script], { cwd: run.cwd, env: run.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const take = (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      outputChars += text.length;
      if (output.length < MAX_KEPT_CHARS) output += text.slice(0, MAX_KEPT_CHARS - output.length);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const stop = () => {
      signalGroup(child.pid, "SIGTERM");
      killTimer ??= setTimeout(() => signalGroup(child.pid, "SIGKILL"), KILL_GRACE_MS);
    };
    const timer = run.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), stop()), run.timeoutMs);
    const onAbort = () => ((cancelled = true), stop());
    if (run.signal.aborted) onAbort();
    else run.signal.addEventListener("abort", onAbort, { once: true });
    const finish = (result: Pick<CommandResult, "exitCode" | "signal"> & { spawnError?: string }) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      run.signal.removeEventListener("abort", onAbort);
      // Whatever the shell left running in its group goes with it.
      signalGroup(child.pid, "SIGKILL");
      resolve({ ...result, timedOut, cancelled, output, outputChars, durationMs: Math.round(performance.now() - started) });
    };
    child.on("error", (error) => finish({ exitCode: null, signal: null, spawnError: error.message }));
    child.on("close", (code, signal) => finish({ exitCode: code, signal }));
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * The context as environment variables: `BATON_CTX_<KEY>` with the key upper-cased and every
 * character other than a letter or digit made `_` (`command.exit_code` → `BATON_CTX_COMMAND_EXIT_CODE`);
 * strings as they are, other values as JSON. A command reads context this way, never by
 * substitution into its script: an agent's words in a shell line would be an injection.
 */
export function contextEnv(context: Readonly<Record<string, unknown>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(context)) {
    env[`BATON_CTX_${key.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return env;
}
