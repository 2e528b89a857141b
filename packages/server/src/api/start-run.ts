import { writeFile } from "node:fs/promises";
import { childFileBase, startCliChild, type CliChildOptions } from "./cli-child.ts";
import type { RunScript } from "./run-script.ts";

export type StartRequest = {
  /** Absent with a workflow: its goal is the task. */
  task?: string | undefined;
  agent: string;
  model?: string | undefined;
  /** The fake agent's steps, or the real path of a script file already checked to be in the project. */
  script?: RunScript | undefined;
  /** The run's timeout ("30m"); without one the project's config or BATON_TIMEOUT must give one. */
  timeout?: string | undefined;
  require_output?: string | undefined;
  /** A workflow's name (in .baton/workflows/, or the built-in `single`), never a path. */
  workflow?: string | undefined;
  /** With a workflow: every gate takes its first option. */
  auto_approve?: boolean | undefined;
};

export type StartOptions = CliChildOptions & {
  /** The store dispatches runs to workers (PostgreSQL): the run is queued (`baton submit`), not run by this server's machine. */
  dispatch?: boolean;
};

/**
 * Starts `baton run … --json` (`baton submit` on a store that dispatches to workers) as a detached child (see `startCliChild`) and answers with the
 * run its first line, `run.created`, names. Steps sent in the request are written beside its
 * output files (`.script.json`) for the CLI to play.
 */
export async function startRun(request: StartRequest, options: StartOptions): Promise<{ id: string; number: number }> {
  const base = childFileBase(options.batonDir);
  const args = [options.dispatch === true ? "submit" : "run", "--agent", request.agent, "--json"];
  if (request.model !== undefined) args.push("--model", request.model);
  if (request.script !== undefined) args.push("--script", await scriptFile(request.script, base));
  if (request.timeout !== undefined) args.push("--timeout", request.timeout);
  if (request.require_output !== undefined) args.push("--require-output", request.require_output);
  if (request.workflow !== undefined) args.push("--workflow", request.workflow);
  if (request.auto_approve === true) args.push("--auto-approve");
  // After `--`, a task starting with "-" is the task, not an option.
  if (request.task !== undefined) args.push("--", request.task);
  const created = await startCliChild(args, base, options, "run_rejected");
  if ((created.type !== "run.created" && created.type !== "run.queued") || typeof created.data["number"] !== "number") {
    throw new Error(`baton ${args[0] ?? "run"} --json printed ${created.type} first, not run.created`);
  }
  return { id: created.run, number: created.data["number"] };
}

async function scriptFile(script: RunScript, base: string): Promise<string> {
  if ("path" in script) return script.path;
  const path = `${base}.script.json`;
  await writeFile(path, `${JSON.stringify(script.steps)}\n`, { mode: 0o600 });
  return path;
}
