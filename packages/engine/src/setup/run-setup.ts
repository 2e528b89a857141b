import { definedFields } from "@baton/protocol/core";
import type { Redactor } from "../redaction/redactor.ts";
import type { RunSink } from "../run/run-sink.ts";
import type { TraceStore } from "../trace/trace-store.ts";
import { runCommand } from "../workflow/run-command.ts";
import { outputTail } from "./output-tail.ts";

export type SetupCommand = { name?: string | undefined; command: string; timeoutMs: number };

export type SetupRun = {
  steps: readonly SetupCommand[];
  /** The fresh workspace the commands run in. */
  cwd: string;
  /** A fan-out branch's name, when the workspace is one's. */
  branch?: string | undefined;
  env: Record<string, string>;
  trace: TraceStore;
  redactor: Redactor;
  signal: AbortSignal;
};

export type SetupFailure = { code: "setup_failed"; message: string };

/**
 * Runs the setup commands in a fresh workspace, one after another, stopping at the first that
 * fails. Records `setup.started`, a `setup.command.completed` per command (output in the trace
 * store) and `setup.completed` or `setup.failed`. Nothing is recorded when there are no
 * commands. Returns the failure, naming the command and the tail of its output, or undefined.
 */
export async function runSetup(sink: RunSink, run: SetupRun): Promise<SetupFailure | undefined> {
  if (run.steps.length === 0) return undefined;
  const started = performance.now();
  sink.append("setup.started", definedFields({ path: run.cwd, commands: run.steps.map((step) => step.command), branch: run.branch }));
  for (const [index, step] of run.steps.entries()) {
    const result = await runCommand({ script: step.command, cwd: run.cwd, env: run.env, timeoutMs: step.timeoutMs, signal: run.signal });
    const traced = run.trace.write(`setup${run.branch === undefined ? "" : `-${run.branch}`}-${index + 1}`, result.output);
    sink.append(
      "setup.command.completed",
      definedFields({ command: step.command, name: step.name, exit_code: result.exitCode, duration_ms: result.durationMs, timed_out: result.timedOut || undefined, output_file: traced?.file }),
    );
    if (result.exitCode === 0) continue;
    const tail = outputTail(run.redactor.redactText(result.spawnError ?? result.output));
    const how = result.cancelled ? "was cancelled" : result.timedOut ? `timed out after ${step.timeoutMs} ms` : result.exitCode === null ? `was ended by ${result.signal ?? "a signal"}` : `exited with ${result.exitCode}`;
    const message = `setup command \`${step.command}\` ${how}${tail === "" ? " (no output)" : `; its output ends:\n${tail}`}`;
    const error: SetupFailure = { code: "setup_failed", message };
    sink.append("setup.failed", definedFields({ command: step.command, exit_code: result.exitCode, error, output_tail: tail, branch: run.branch }));
    return error;
  }
  sink.append("setup.completed", definedFields({ commands: run.steps.length, duration_ms: Math.round(performance.now() - started), branch: run.branch }));
  return undefined;
}
