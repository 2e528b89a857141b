import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { apiError } from "../http/api-errors.ts";

/** Where and how the server starts `baton` children: runs, and resumed runs. */
export type CliChildOptions = {
  /** The project's root: the child's working directory. */
  projectRoot: string;
  batonDir: string;
  /** The `baton` launcher (`packages/cli/bin/baton.js`): the CLI is the only writer of runs. */
  cliEntry: string;
  /** Longest wait for the child's first event. */
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
};

/** The first line a child printed: the first event it wrote to the run's log (for `submit`, `run.queued`: the run it queued). */
export type FirstEvent = { run: string; type: string; data: Record<string, unknown> };

/** How often the child's output file is looked at for its first line. */
const POLL_MS = 20;

/** A new file name under `.baton/serve/starts/` for one child's output (and its script). */
export function childFileBase(batonDir: string): string {
  const dir = join(batonDir, "serve", "starts");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return join(dir, `${new Date().toISOString().replaceAll(":", "")}-${randomBytes(4).toString("hex")}`);
}

/**
 * Starts `baton ARGS… --json` as a detached child (its own session, so neither Ctrl-C on the
 * server's terminal nor the server's end stops it), with stdout and stderr in files at `base`
 * (file descriptors, not pipes: nothing breaks when the server is gone), and waits for its
 * first NDJSON line: the first event it wrote, so the run is in the child's hands. If the child
 * exits first, its one-line error is the answer (422, `refusedCode`). The stderr file stays (a
 * crash report); the stdout file is unlinked once read (the log holds the same events).
 */
export async function startCliChild(args: readonly string[], base: string, options: CliChildOptions, refusedCode: "run_rejected" | "resume_rejected"): Promise<FirstEvent> {
  const out = openSync(`${base}.out`, "w", 0o600);
  const err = openSync(`${base}.err`, "w", 0o600);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  try {
    const child = spawn(process.execPath, [options.cliEntry, ...args], { cwd: options.projectRoot, detached: true, stdio: ["ignore", out, err], env: options.env });
    child.once("exit", (code, signal) => (exited = { code, signal }));
    child.once("error", (error) => (spawnError = error));
    child.unref();
  } finally {
    closeSync(out);
    closeSync(err);
  }
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const first = firstEvent(await readFile(`${base}.out`, "utf8"), args[0]);
    if (first !== undefined) {
      // The rest of stdout repeats the run's log: the child keeps its open file, the name goes.
      await rm(`${base}.out`, { force: true });
      return first;
    }
    if (spawnError !== undefined) throw spawnError;
    if (exited !== undefined) {
      // Output written just before the exit is in the file by now: look once more.
      const late = firstEvent(await readFile(`${base}.out`, "utf8"), args[0]);
      if (late !== undefined) return late;
      const stderr = (await readFile(`${base}.err`, "utf8")).trim().split("\n")[0] ?? "";
      const message = stderr.replace(/^baton: /, "") || `baton ${args[0] ?? ""} exited with ${exited.code ?? exited.signal}`;
      throw apiError(refusedCode, message);
    }
    if (performance.now() > deadline) throw apiError("start_timeout", `baton ${args[0] ?? ""} did not start within ${options.timeoutMs} ms`, `its output is in ${base}.out and .err`);
    await sleep(POLL_MS);
  }
}

function firstEvent(text: string, command: string | undefined): FirstEvent | undefined {
  const end = text.indexOf("\n");
  if (end === -1) return undefined;
  const event = JSON.parse(text.slice(0, end)) as { run?: unknown; type?: unknown; data?: unknown };
  const queued = event as { run?: unknown; number?: unknown };
  // `baton submit --json` answers with the run it queued for the workers: {run, number, job}.
  if (command === "submit" && typeof queued.run === "string" && typeof queued.number === "number") return { run: queued.run, type: "run.queued", data: { number: queued.number } };
  if (typeof event.run !== "string" || typeof event.type !== "string" || typeof event.data !== "object" || event.data === null) {
    throw new Error(`baton ${command ?? ""} --json printed an unexpected first line: ${text.slice(0, Math.min(end, 200))}`);
  }
  return { run: event.run, type: event.type, data: event.data as Record<string, unknown> };
}
