import { definedFields } from "@baton/protocol/core";
import type { Usage } from "@baton/protocol";
import type { SessionOutcome } from "../acp/agent-session.ts";
import type { CancelRequest } from "./cancel-request.ts";

type ErrorInfo = { code: string; message: string };

/** What a run's work came to, as Baton saw it when the agent's session ended. */
export type RunEndInput = {
  outcome: SessionOutcome;
  /** The commit of the run's work: made (`sha`), refused by git (`error`), or none (nothing changed, or in place). */
  commit: { sha: string } | { error: ErrorInfo } | undefined;
  /** Who cancelled the run, when it was cancelled. */
  cancelledBy?: CancelRequest;
  /** The run's total cost so far, when the agent reports one. */
  costUsd?: number;
  durationMs: number;
  /** The last validation of the agent's work (`[validation]`, `--validate`), when the run has commands. */
  validation?: { passed: boolean; error?: ErrorInfo | undefined } | undefined;
  /** Delivery of a run that would otherwise succeed (`--merge`): its refusal or conflict fails the run. */
  delivery?: { error?: ErrorInfo | undefined } | undefined;
};

/** How a run ends: the status the caller reports, and the events that say so, in order. */
export type RunEnd = {
  status: "succeeded" | "stopped" | "failed" | "cancelled";
  /** For a stopped run: the limit (time, cost, tokens, tool_calls), `repeats` or `provider`. */
  stoppedBy?: string;
  error?: ErrorInfo;
  /** `log` events to append before the final one. */
  logs: { level: "info" | "warn" | "error"; code: string; message: string }[];
  final: { type: "run.completed" | "run.failed" | "run.cancelled"; data: Record<string, unknown> };
};

/** Stop reasons that end a turn without its work being done, and the error code each fails the run with. */
export const FAILING_STOP_REASONS: Readonly<Record<string, string>> = {
  max_tokens: "output_truncated",
  max_turn_requests: "turn_limit",
  refusal: "refused",
};

/**
 * Turns how the agent's session ended (and whether its work could be committed) into how the
 * run ends. Pure: the same input always gives the same end, and nothing is written here.
 *
 * - A commit git refused fails a run that had otherwise completed, and is logged either way.
 * - A provider failure of a known class with work committed is a stop by the provider, not a
 *   failure: the work is kept and the run says who stopped it. A stop by the provider with
 *   nothing committed (even after a hand-back) is a failure, with the provider's class.
 * - A turn that ended for a failing stop reason (`max_tokens`, `refusal`, …) fails the run.
 * - A completed run whose validation still fails fails `validation_failed` (its work is
 *   committed all the same); one whose delivery was refused or conflicted fails with that.
 */
export function decideRunEnd(input: RunEndInput): RunEnd {
  const logs: RunEnd["logs"] = [];
  let outcome = input.outcome;
  const committed = input.commit !== undefined && "sha" in input.commit ? input.commit.sha : undefined;
  if (input.commit !== undefined && "error" in input.commit) {
    logs.push({ level: "error", ...input.commit.error });
    if (outcome.kind === "completed") outcome = { ...outcome, kind: "failed", error: input.commit.error };
  }
  if (outcome.kind === "failed" && outcome.providerError !== undefined && committed !== undefined) {
    logs.push({ level: "warn", code: "provider_stopped", message: `the model provider stopped the run (${outcome.providerError}); its work so far is committed: ${outcome.error.message}` });
    outcome = { kind: "stopped", by: "provider", providerError: outcome.providerError, handedBack: false, usage: outcome.usage, turns: outcome.turns };
  } else if (outcome.kind === "stopped" && outcome.providerError !== undefined && outcome.error !== undefined && committed === undefined) {
    // Stopped by the provider with no work to keep (even after a hand-back): a failure.
    outcome = { kind: "failed", error: outcome.error, providerError: outcome.providerError, usage: outcome.usage, turns: outcome.turns };
  }
  const usage: Usage = outcome.usage;
  switch (outcome.kind) {
    case "cancelled": {
      const by = input.cancelledBy ?? { by: "user" };
      return { status: "cancelled", logs, final: { type: "run.cancelled", data: definedFields({ by: by.by, reason: by.reason }) } };
    }
    case "failed":
      return failed(logs, outcome.error, outcome.providerError, usage, input.durationMs);
    case "completed": {
      const code = FAILING_STOP_REASONS[outcome.stopReason];
      if (code !== undefined) return failed(logs, { code, message: `the agent ended its turn with stop reason ${outcome.stopReason}` }, undefined, usage, input.durationMs);
      if (input.validation !== undefined && !input.validation.passed) {
        return failed(logs, input.validation.error ?? { code: "validation_failed", message: "validation failed" }, undefined, usage, input.durationMs);
      }
      if (input.delivery?.error !== undefined) return failed(logs, input.delivery.error, undefined, usage, input.durationMs);
      return { status: "succeeded", logs, final: { type: "run.completed", data: completedData({ status: "succeeded" }, usage, input, committed) } };
    }
    case "stopped":
      return {
        status: "stopped",
        stoppedBy: outcome.by,
        logs,
        final: {
          type: "run.completed",
          data: completedData({ status: "stopped", stopped_by: outcome.by, handed_back: outcome.handedBack, provider_error: outcome.providerError }, usage, input, committed),
        },
      };
  }
}

function failed(logs: RunEnd["logs"], error: ErrorInfo, providerError: string | undefined, usage: Usage, durationMs: number): RunEnd {
  return { status: "failed", error, logs, final: { type: "run.failed", data: definedFields({ error, provider_error: providerError, usage, active_ms: durationMs }) } };
}

function completedData(head: Record<string, unknown>, usage: Usage, input: RunEndInput, commit: string | undefined): Record<string, unknown> {
  return definedFields({ ...head, usage, cost_usd: input.costUsd, active_ms: input.durationMs, duration_ms: input.durationMs, commit });
}
