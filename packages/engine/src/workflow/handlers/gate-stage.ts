import { definedFields } from "@baton/protocol/core";
import { answerGate, type GateDecision } from "../gate-answer.ts";
import type { StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";
import type { WorkflowRouter } from "../workflow-router.ts";

export type GateStageDeps = {
  router: WorkflowRouter;
  /** The decision this process brings for a gate (from `baton approve|reject|answer`), taken once. */
  takeDecision: (gate: string) => GateDecision | undefined;
  /** `--auto-approve`: every gate takes its first option. */
  autoApprove: boolean;
  now: () => Date;
};

/**
 * A human gate (`hexagon`). Without a decision it records `approval.requested` and pauses the
 * run (its visit stays open until answered, in this process or a later one). With one, it
 * records `approval.resolved` and routes by the chosen option's label. A gate whose timeout
 * has passed takes its `default_choice`, or fails closed without one.
 */
export function gateStage(deps: GateStageDeps) {
  return (stage: StageRun): Promise<StageResult> => {
    const { node, sink } = stage;
    const { options, freeform, freeformTo } = deps.router.gate(node.id);
    const pending = sink.state.workflow.gate?.gate === node.id ? sink.state.workflow.gate : undefined;
    let decision = deps.takeDecision(node.id) ?? (deps.autoApprove ? { kind: "approve" as const, by: "auto", via: "auto" as const } : undefined);
    if (decision === undefined && pending?.timeout_ms !== undefined && deps.now().getTime() - Date.parse(pending.requested_at) >= pending.timeout_ms) {
      if (pending.default_choice === undefined) {
        sink.append("approval.resolved", { gate: node.id, approved: false, by: "baton", via: "timeout", comment: "the gate's timeout passed with no answer" });
        return Promise.resolve({ outcome: "failed", class: "deterministic", error: { code: "gate_timeout", message: `gate "${node.id}" was not answered within its timeout and has no default_choice: it fails closed` } });
      }
      decision = { kind: "answer", value: pending.default_choice, by: "baton", via: "timeout" };
    }
    if (decision === undefined) {
      if (pending === undefined) {
        sink.append(
          "approval.requested",
          definedFields({ gate: node.id, question: node.label, options, freeform, default_choice: node.default_choice, timeout_ms: node.timeout_ms }),
        );
      }
      return Promise.resolve({ outcome: "skipped", halt: { kind: "paused", gate: node.id } });
    }
    const answer = answerGate(options, freeform, decision);
    sink.append(
      "approval.resolved",
      definedFields({ gate: node.id, choice: answer.choice?.label, text: answer.text, approved: answer.approved, comment: decision.comment, by: decision.by, via: decision.via }),
    );
    const summary = answer.choice === undefined ? (answer.text === undefined ? (answer.approved ? "approved" : "rejected") : "answered") : `chose ${answer.choice.label}`;
    return Promise.resolve(
      definedFields<StageResult>({
        outcome: answer.approved ? "succeeded" : "failed",
        class: answer.approved ? undefined : "deterministic",
        error: answer.approved ? undefined : { code: "rejected", message: `gate "${node.id}" was rejected${decision.comment === undefined ? "" : `: ${decision.comment}`}` },
        summary,
        signals: definedFields({
          preferred_label: answer.choice?.label,
          // Free text goes the way of the gate's freeform edge, and is the context's `<gate>.answer`.
          suggested_next_ids: answer.text === undefined || freeformTo === undefined ? undefined : [freeformTo],
          context_updates: answer.text === undefined ? undefined : { [`${node.id}.answer`]: answer.text },
        }),
      }),
    );
  };
}
