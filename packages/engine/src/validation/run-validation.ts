import { definedFields } from "@baton/protocol/core";
import type { Redactor } from "../redaction/redactor.ts";
import type { RunSink } from "../run/run-sink.ts";
import { outputTail } from "../setup/output-tail.ts";
import type { TraceStore } from "../trace/trace-store.ts";
import { runCommand } from "../workflow/run-command.ts";

/** What validating a run's work takes: its commands, where they run and how long each may take. */
export type ValidationSpec = {
  commands: readonly string[];
  timeoutMs: number;
  /** Fix prompts sent before the run fails `validation_failed`. */
  maxFixRounds: number;
  env: Record<string, string>;
  trace: TraceStore;
  redactor: Redactor;
};

/** One command that did not pass: how it ended and the tail of its output (redacted). */
export type ValidationFailure = { command: string; exitCode: number | null; timedOut: boolean; tail: string };

export type ValidationVerdict = { passed: boolean; failures: ValidationFailure[]; round: number };

/**
 * Runs every validation command in `cwd`, in order, each to its end (a later command's
 * failure is worth knowing too), and records a `validation.completed` for each.
 */
export async function runValidation(sink: RunSink, spec: ValidationSpec, run: { cwd: string; round: number; signal: AbortSignal }): Promise<ValidationVerdict> {
  const failures: ValidationFailure[] = [];
  const branch = sink.stage?.branch === undefined ? "" : `-${sink.stage.branch}`;
  for (const [index, command] of spec.commands.entries()) {
    const result = await runCommand({ script: command, cwd: run.cwd, env: spec.env, timeoutMs: spec.timeoutMs, signal: run.signal });
    const traced = spec.trace.write(`validation${branch}-${sink.stage?.id ?? "run"}-${run.round}-${index + 1}`, result.output);
    const passed = result.exitCode === 0;
    sink.append(
      "validation.completed",
      definedFields({ command, passed, exit_code: result.exitCode, duration_ms: result.durationMs, round: run.round, timed_out: result.timedOut || undefined, output_file: traced?.file }),
    );
    if (!passed) failures.push({ command, exitCode: result.exitCode, timedOut: result.timedOut, tail: outputTail(spec.redactor.redactText(result.spawnError ?? result.output)) });
    if (result.cancelled) break;
  }
  return { passed: failures.length === 0, failures, round: run.round };
}

/** The prompt that sends failing validation back to the agent: each command, how it ended, its output's tail. */
export function fixPrompt(verdict: ValidationVerdict, round: number, maxRounds: number): string {
  const parts = verdict.failures.map((failure) => {
    const how = failure.timedOut ? "timed out" : failure.exitCode === null ? "was ended by a signal" : `exited with ${failure.exitCode}`;
    return `$ ${failure.command}   (${how})\n\`\`\`\n${failure.tail === "" ? "(no output)" : failure.tail}\n\`\`\``;
  });
  return [
    `Validation failed after your work (fix round ${round} of ${maxRounds}). Fix the code so that ${verdict.failures.length === 1 ? "this command passes" : "these commands pass"}; Baton runs every validation command again when you end your turn. Do not change the commands or weaken the checks.`,
    ...parts,
  ].join("\n\n");
}

/** The error a run fails with when validation still fails after its last fix round. */
export function validationFailedError(verdict: ValidationVerdict): { code: "validation_failed"; message: string } {
  const names = verdict.failures.map((failure) => `\`${failure.command}\``).join(", ");
  const last = verdict.failures.at(-1);
  const tail = last === undefined || last.tail === "" ? "" : `; the output of \`${last.command}\` ends:\n${last.tail}`;
  return { code: "validation_failed", message: `validation still fails after ${verdict.round} fix round${verdict.round === 1 ? "" : "s"}: ${names}${tail}` };
}
