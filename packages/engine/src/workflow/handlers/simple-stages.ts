import { waitKey } from "@baton/protocol/core";
import type { StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";

/** The start and exit stages do nothing but mark where the walk begins and ends. */
export function markerStage(): Promise<StageResult> {
  return Promise.resolve({ outcome: "succeeded" });
}

/**
 * A conditional (`diamond`) only routes: it passes on the outcome and preferred label of the
 * stage before it, so its edges' conditions read what that stage did.
 */
export function conditionalStage(stage: StageRun): Promise<StageResult> {
  const label = stage.previous.signals?.preferred_label;
  return Promise.resolve(label === undefined ? { outcome: stage.previous.outcome } : { outcome: stage.previous.outcome, signals: { preferred_label: label } });
}

/**
 * A wait stage (`insulator`) holds the run for its `duration`. The deadline is recorded
 * (`wait.started`) once per visit, so a visit resumed after a crash waits only what is left.
 */
export function waitStage(deps: { now: () => Date; sleep: (ms: number, signal: AbortSignal) => Promise<void> }) {
  return async (stage: StageRun): Promise<StageResult> => {
    const duration = stage.node.duration_ms ?? 0;
    const recorded = recordedDeadline(stage);
    const until = recorded ?? new Date(deps.now().getTime() + duration).toISOString();
    if (recorded === undefined) stage.sink.append("wait.started", { stage: stage.node.id, until, duration_ms: duration });
    const left = Date.parse(until) - deps.now().getTime();
    if (left > 0) await deps.sleep(left, stage.signal);
    if (stage.signal.aborted) return { outcome: "failed", class: "cancelled", error: { code: "cancelled", message: "the wait was cancelled" }, halt: { kind: "cancelled" } };
    return { outcome: "succeeded", summary: `waited until ${until}` };
  };
}

/** The deadline an earlier process recorded for this same visit, if it got that far. */
function recordedDeadline(stage: StageRun): string | undefined {
  const deadline = stage.sink.state.workflow.waits[waitKey(stage.scope)];
  return deadline;
}
