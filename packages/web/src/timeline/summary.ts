// The run's header (what, who, status, spend) is the protocol's own run-state fold, folded from
// the same events as the timeline: the zod-free core bundles small.
import { applyEvent, initialRunState, isFinalStatus, type RunState } from "@baton/protocol/core";

export type RunSummary = RunState;

export const initialSummary = initialRunState;

/** Applies one durable event to a summary in place (the caller owns the copy). */
export const applyToSummary = applyEvent;

export function isEnded(status: string): boolean {
  return isFinalStatus(status);
}
