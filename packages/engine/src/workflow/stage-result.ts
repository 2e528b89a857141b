import type { Usage } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import type { SessionOutcome } from "../acp/agent-session.ts";
import { FAILING_STOP_REASONS } from "../run/run-end.ts";
import type { CommandResult } from "./run-command.ts";

export type StageOutcome = "succeeded" | "partially_succeeded" | "skipped" | "failed";
export type FailureClass = "transient_infra" | "deterministic" | "budget_exhausted" | "cancelled" | "structural";

/** What a stage leaves for routing besides its outcome. */
export type StageSignals = {
  preferred_label?: string;
  suggested_next_ids?: string[];
  context_updates?: Record<string, unknown>;
};

/** Why the whole run must stop after this stage, whatever the graph says next. */
export type StageHalt =
  | { kind: "cancelled" }
  /** A run-wide limit, a loop or the provider stopped it; its work is kept. */
  | { kind: "stopped"; by: string; providerError?: string; handedBack: boolean }
  /** A human gate waits: the run pauses. */
  | { kind: "paused"; gate: string };

/** How one attempt of one stage visit ended. */
export type StageResult = {
  outcome: StageOutcome;
  error?: { code: string; message: string };
  class?: FailureClass;
  signals?: StageSignals;
  usage?: Usage;
  summary?: string;
  command?: { exit_code?: number; timed_out?: boolean; output_file?: string; output_chars?: number; preview?: string };
  halt?: StageHalt;
  /** The stage to go to, whatever the edges say: a fan-out's fan-in, where its branches meet. */
  next?: string;
  /** A commit the handler made on the run's branch itself (a fan-in's merges): the checkpoint's when the visit left nothing else to commit. */
  commit?: string;
};

/** Classes a stage retry can help: the same attempt again may pass. */
export function isRetryable(result: StageResult): boolean {
  return result.outcome === "failed" && result.halt === undefined && (result.class === "transient_infra" || result.class === "deterministic");
}

/**
 * An agent stage's result from how its session ended and the signals of its final message.
 * A completed turn succeeds (or takes the outcome the agent declared, unless `autoStatus`);
 * a provider failure is transient; a stop at a run-wide limit halts the run with its work kept.
 */
export function agentStageResult(outcome: SessionOutcome, declared: { outcome?: StageOutcome; signals?: StageSignals }, autoStatus: boolean): StageResult {
  const usage = outcome.usage;
  const signals = declared.signals;
  switch (outcome.kind) {
    case "completed": {
      const code = FAILING_STOP_REASONS[outcome.stopReason];
      if (code !== undefined) return definedFields<StageResult>({ outcome: "failed", class: "deterministic", error: { code, message: `the agent ended its turn with stop reason ${outcome.stopReason}` }, usage, signals });
      const chosen = autoStatus ? "succeeded" : (declared.outcome ?? "succeeded");
      const result: StageResult = definedFields<StageResult>({ outcome: chosen, usage, summary: `the agent ended its turn (${outcome.stopReason})`, signals });
      if (chosen === "failed") return { ...result, class: "deterministic", error: { code: "agent_declared_failure", message: "the agent said the stage failed" } };
      return result;
    }
    case "stopped":
      return { outcome: "failed", class: "budget_exhausted", error: { code: "stopped", message: `the run was stopped (${outcome.by})` }, usage, halt: definedFields({ kind: "stopped" as const, by: outcome.by, handedBack: outcome.handedBack, providerError: outcome.providerError }) };
    case "cancelled":
      return { outcome: "failed", class: "cancelled", error: { code: "cancelled", message: "the stage was cancelled" }, usage, halt: { kind: "cancelled" } };
    case "failed":
      return { outcome: "failed", class: outcome.providerError === undefined ? "deterministic" : "transient_infra", error: outcome.error, usage };
  }
}

/** A command stage's result: exit code 0 succeeds, anything else fails and is routed. */
export function commandStageResult(result: CommandResult, output: { file?: string; preview: string }): StageResult {
  const command = definedFields({
    exit_code: result.exitCode ?? undefined,
    timed_out: result.timedOut ? true : undefined,
    output_file: output.file,
    output_chars: result.outputChars,
    preview: output.preview,
  });
  const context_updates = { "command.exit_code": result.exitCode ?? -1, "command.output": output.preview };
  if (result.cancelled) return { outcome: "failed", class: "cancelled", error: { code: "cancelled", message: "the command was cancelled" }, command, halt: { kind: "cancelled" } };
  if (result.spawnError !== undefined) return { outcome: "failed", class: "structural", error: { code: "command_not_started", message: `the shell did not start: ${result.spawnError}` }, command };
  if (result.timedOut) return { outcome: "failed", class: "deterministic", error: { code: "stage_timeout", message: "the command ran past the stage's timeout" }, command, signals: { context_updates } };
  if (result.exitCode === 0) return { outcome: "succeeded", summary: "exit code 0", command, signals: { context_updates } };
  const how = result.exitCode === null ? `was ended by ${result.signal ?? "a signal"}` : `exited with code ${result.exitCode}`;
  return { outcome: "failed", class: "deterministic", error: { code: "command_failed", message: `the command ${how}` }, command, signals: { context_updates } };
}
