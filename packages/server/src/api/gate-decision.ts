import { isBatonError } from "@baton/engine/errors";
import type { RunState } from "@baton/protocol/core";
import { apiError } from "../http/api-errors.ts";
import type { DecisionKind } from "./contract/gates.ts";

export type { DecisionKind };

/** A decision as the API takes it: what, with which words, by whom, through which surface. */
export type DecisionRequest = {
  kind: DecisionKind;
  /** For `answer`: an option's label or key, or free text at a freeform gate. */
  answer?: string | undefined;
  comment?: string | undefined;
  /** Who decided, as the client names them; absent: the user the server runs as (the CLI's default). */
  by?: string | undefined;
  via: "api" | "web";
};

/**
 * The CLI's own check (commands/gate-decision.ts), made from the run's folded events before
 * anything is started: the run must be paused at a gate (409 `not_paused`), and an answer must
 * fit one of its options or be free text at a freeform gate (422 `invalid_answer`).
 */
export async function checkGateDecision(state: RunState, decision: DecisionRequest): Promise<void> {
  const label = `run ${state.number ?? state.run ?? ""}`;
  const gate = state.workflow.gate;
  if (state.status !== "paused" || gate === undefined) {
    throw apiError("not_paused", `${label} is ${state.status}, not waiting at a gate`, "only a workflow run paused at a gate takes a decision");
  }
  // The engine's entry point loads the agent runner: only when a decision is asked for.
  const { answerGate } = await import("@baton/engine");
  try {
    answerGate(gate.options, gate.freeform, { kind: decision.kind, value: decision.answer, comment: decision.comment, by: decision.by ?? "", via: decision.via });
  } catch (error) {
    if (isBatonError(error)) throw apiError("invalid_answer", error.message, error.hint);
    throw error;
  }
}
