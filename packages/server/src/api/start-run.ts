import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { apiError } from "../http/api-errors.ts";
import type { RunScript } from "./run-script.ts";

export type StartRequest = {
  task: string;
  agent: string;
  model?: string | undefined;
  /** The fake agent's steps, or the real path of a script file already checked to be in the project. */
  script?: RunScript | undefined;
  /** The run's timeout ("30m"); without one the project's config or BATON_TIMEOUT must give one. */
  timeout?: string | undefined;
  require_output?: string | undefined;
};

export type StartOptions = {
  /** The project's root: the run's working directory. */
  projectRoot: string;
  batonDir: string;
  /** The `baton` launcher (`packages/cli/bin/baton.js`): runs are started as the CLI starts them. */
  cliEntry: string;
  /** Longest wait for the run to be created. */
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
};

/** How often the started run's output file is looked at for its first line. */
const POLL_MS = 20;

/**
 * Starts `baton run … --json` as a detached child (its own session, so neither Ctrl-C on the
 * server's terminal nor the server's end stops it), with stdout and stderr in files under
 * `.baton/serve/starts/` (file descriptors, not pipes: nothing breaks when the server is
 * gone), and waits for the first NDJSON line, `run.created`, which names the run. If the
 * child exits first, its one-line error is the answer (422). The stderr file stays (a run's
 * crash report); the stdout file is unlinked once read (the log holds the same events).
 * Steps sent in the request are written beside them (`.script.json`) for the CLI to play.
 */
export async function startRun(request: StartRequest, options: StartOptions): Promise<{ id: string; number: number }> {
  const dir = join(options.batonDir, "serve", "starts");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const base = join(dir, `${new Date().toISOString().replaceAll(":", "")}-${randomBytes(4).toString("hex")}`);
  const args = [options.cliEntry, "run", "--agent", request.agent, "--json"];
  if (request.model !== undefined) args.push("--model", request.model);
  if (request.script !== undefined) args.push("--script", await scriptFile(request.script, base));
  if (request.timeout !== undefined) args.push("--timeout", request.timeout);
  if (request.require_output !== undefined) args.push("--require-output", request.require_output);
  // After `--`, a task starting with "-" is the task, not an option.
  args.push("--", request.task);
  const out = openSync(`${base}.out`, "w", 0o600);
  const err = openSync(`${base}.err`, "w", 0o600);
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  try {
    const child = spawn(process.execPath, args, { cwd: options.projectRoot, detached: true, stdio: ["ignore", out, err], env: options.env });
    child.once("exit", (code, signal) => (exited = { code, signal }));
    child.once("error", (error) => (spawnError = error));
    child.unref();
  } finally {
    closeSync(out);
    closeSync(err);
  }
  const deadline = performance.now() + options.timeoutMs;
  for (;;) {
    const created = firstEvent(await readFile(`${base}.out`, "utf8"));
    if (created !== undefined) {
      // The rest of stdout repeats the run's log: the child keeps its open file, the name goes.
      await rm(`${base}.out`, { force: true });
      return created;
    }
    if (spawnError !== undefined) throw spawnError;
    if (exited !== undefined) {
      // Output written just before the exit is in the file by now: look once more.
      const late = firstEvent(await readFile(`${base}.out`, "utf8"));
      if (late !== undefined) return late;
      const stderr = (await readFile(`${base}.err`, "utf8")).trim().split("\n")[0] ?? "";
      const message = stderr.replace(/^baton: /, "") || `baton run exited with ${exited.code ?? exited.signal}`;
      throw apiError("run_rejected", message);
    }
    if (performance.now() > deadline) throw apiError("start_timeout", `the run did not start within ${options.timeoutMs} ms`, `its output is in ${base}.out and .err`);
    await sleep(POLL_MS);
  }
}

async function scriptFile(script: RunScript, base: string): Promise<string> {
  if ("path" in script) return script.path;
  const path = `${base}.script.json`;
  await writeFile(path, `${JSON.stringify(script.steps)}\n`, { mode: 0o600 });
  return path;
}

function firstEvent(text: string): { id: string; number: number } | undefined {
  const end = text.indexOf("\n");
  if (end === -1) return undefined;
  const event = JSON.parse(text.slice(0, end)) as { run?: unknown; data?: { number?: unknown } };
  if (typeof event.run !== "string" || typeof event.data?.number !== "number") {
    throw new Error(`baton run --json printed an unexpected first line: ${text.slice(0, Math.min(end, 200))}`);
  }
  return { id: event.run, number: event.data.number };
}
