import { definedFields } from "@baton/protocol/core";
import type { Usage } from "@baton/protocol";
import type { CancelRequest } from "../run/cancel-request.ts";
import type { WalkEnd } from "./walk-workflow.ts";

export type WorkflowRunResult = {
  runId: string;
  number: number;
  status: "succeeded" | "stopped" | "failed" | "cancelled" | "paused";
  stoppedBy?: string;
  /** The gate a paused run waits at. */
  gate?: string;
  error?: { code: string; message: string };
};

export type WorkflowEndInput = {
  end: WalkEnd;
  cancelledBy?: CancelRequest | undefined;
  usage: Usage;
  costUsd?: number | undefined;
  durationMs: number;
  /** The head of the run's branch when it moved past its base. */
  commit?: string | undefined;
};

/**
 * How a workflow run's walk becomes its terminal event. Pure. At the exit, a goal gate that
 * did not succeed fails the run; a halt is a cancel, a stop (its work kept) or a pause at a
 * gate; a walk that could not go on fails with what stopped it, naming the stage.
 */
export function decideWorkflowEnd(input: WorkflowEndInput): { result: Omit<WorkflowRunResult, "runId" | "number">; final: { type: string; data: Record<string, unknown> } } {
  const { end } = input;
  const totals = definedFields({ usage: input.usage, cost_usd: input.costUsd, active_ms: input.durationMs, duration_ms: input.durationMs, commit: input.commit });
  if (end.kind === "exited") {
    if (end.goalFailures.length > 0) {
      const error = { code: "goal_gate_unmet", message: `the run reached its exit but goal gate${end.goalFailures.length === 1 ? "" : "s"} ${end.goalFailures.map((s) => `"${s}"`).join(", ")} did not succeed` };
      return { result: { status: "failed", error }, final: { type: "run.failed", data: { error, usage: input.usage, active_ms: input.durationMs } } };
    }
    return { result: { status: "succeeded" }, final: { type: "run.completed", data: { status: "succeeded", ...totals } } };
  }
  if (end.kind === "joined") {
    // Only a branch's walk joins; the run's own never does.
    const error = { code: "internal", message: `the run's walk ended as a branch does, after stage "${end.stage}"` };
    return { result: { status: "failed", error }, final: { type: "run.failed", data: { error, usage: input.usage, active_ms: input.durationMs } } };
  }
  if (end.kind === "failed") {
    return { result: { status: "failed", error: end.error }, final: { type: "run.failed", data: { error: end.error, usage: input.usage, active_ms: input.durationMs } } };
  }
  const halt = end.halt;
  switch (halt.kind) {
    case "paused":
      return { result: { status: "paused", gate: halt.gate }, final: { type: "run.paused", data: { reason: "approval", gate: halt.gate } } };
    case "cancelled": {
      const by = input.cancelledBy ?? { by: "user" };
      return { result: { status: "cancelled" }, final: { type: "run.cancelled", data: definedFields({ by: by.by, reason: by.reason }) } };
    }
    case "stopped":
      return {
        result: { status: "stopped", stoppedBy: halt.by },
        final: { type: "run.completed", data: definedFields({ status: "stopped", stopped_by: halt.by, handed_back: halt.handedBack, provider_error: halt.providerError, ...totals }) },
      };
  }
}
