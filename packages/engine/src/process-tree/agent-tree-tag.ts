import { randomUUID } from "node:crypto";
import { killTagged, type TreeTag } from "./process-tree.ts";
import { definedFields } from "@baton/protocol/core";

/**
 * Set in every agent's environment, and inherited by what it starts: `<run id>/<random>`. The
 * random part tells this agent's processes from any other's; the run id lets the recovery of a
 * run whose Baton was killed (and could not end its agent's tree) find what is left of it.
 */
export const AGENT_TREE_ENV = "BATON_AGENT_TREE";

/** A new tag for an agent of run `runId` (none: an agent outside a run, such as a test's). */
export function agentTreeTag(runId?: string): TreeTag {
  return { name: AGENT_TREE_ENV, value: `${runId ?? "none"}/${randomUUID()}` };
}

/**
 * Kills every process left by the agents of run `runId` (carrying its tag), started at or after
 * `notBefore` (the start time, in clock ticks, of the process that ran it). Returns how many.
 */
export function killRunLeftovers(runId: string, notBefore?: number): number {
  return killTagged(AGENT_TREE_ENV, (value) => value.startsWith(`${runId}/`), definedFields({ notBefore }));
}
