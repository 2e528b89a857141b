import { BatonError } from "@baton/engine/errors";
import { answerGate, type GateDecision } from "@baton/engine/workflow";
import type { RunState } from "@baton/protocol/core";

/**
 * Checks a decision against the gate the run waits at, before anything is written: the run
 * must be paused at a gate, and an answer must fit one of its options (or be free text at a
 * freeform gate). Throws a one-line usage error otherwise.
 */
export function checkDecision(state: RunState, label: string, decision: GateDecision): void {
  const gate = state.workflow.gate;
  if (state.status !== "paused" || gate === undefined) {
    throw new BatonError("not_paused", `${label} is ${state.status}, not waiting at a gate`, { hint: `see it with baton show ${state.number ?? ""}` });
  }
  answerGate(gate.options, gate.freeform, decision);
}
