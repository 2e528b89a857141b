import { isBatonError } from "@baton/engine/errors";
import type { RunState } from "@baton/protocol/core";
import { apiError } from "../http/api-errors.ts";
import { stringField } from "./json-body.ts";

export type DecisionKind = "approve" | "reject" | "answer";

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

/** Longest answer and comment taken (a gate's answer is a label or a paragraph). */
const MAX_DECISION_TEXT = 10_000;
const MAX_BY = 200;
const VIAS = ["api", "web"] as const;

/** Reads a decision's body: `answer` (required for answer), `comment`, `by`, `via` (api or web). */
export function decisionFromBody(kind: DecisionKind, body: Record<string, unknown>): DecisionRequest {
  const via = stringField(body, "via", { required: false, max: 8 }) ?? "api";
  if (!(VIAS as readonly string[]).includes(via)) throw apiError("bad_request", `"via" must be one of ${VIAS.join(", ")}`);
  return {
    kind,
    answer: kind === "answer" ? stringField(body, "answer", { required: true, max: MAX_DECISION_TEXT }) : undefined,
    comment: stringField(body, "comment", { required: false, max: MAX_DECISION_TEXT }),
    by: stringField(body, "by", { required: false, max: MAX_BY }),
    via: via as DecisionRequest["via"],
  };
}

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
