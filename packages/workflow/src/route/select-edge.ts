import type { Outcome } from "../condition/ast.ts";
import { evaluateCondition } from "../condition/evaluate.ts";
import type { WorkflowDefinition, WorkflowEdge } from "../definition/schema.ts";
import { normalizeLabel } from "../gate/labels.ts";

/** Why an edge was taken, in the order the rules are tried. */
export type RouteReason = "condition" | "preferred_label" | "suggested_next" | "unconditional";

export type RouteInput = {
  outcome: Outcome;
  preferredLabel?: string | undefined;
  suggestedNextIds?: readonly string[] | undefined;
  context: Readonly<Record<string, unknown>>;
};

export type RouteDecision =
  | { kind: "route"; edge: WorkflowEdge; reason: RouteReason }
  | { kind: "no_route"; stage: string; outcome: Outcome; message: string };

/**
 * Chooses the edge a stage leaves by, deterministically:
 * 1. edges whose condition holds (highest weight, then target id);
 * 2. the unconditional edge whose label is the preferred label (accelerator and case ignored);
 * 3. the unconditional edge to the first suggested next id that has one;
 * 4. unconditional edges (highest weight, then target id).
 * A condition is a guard: an edge whose condition is false is never taken, whatever its label.
 * No edge: a `no_route` value naming the stage and the outcome.
 *
 * @example selectNextEdge(definition, "check", { outcome: "failed", context: {} }) // { kind: "route", edge: check -> fix, reason: "unconditional" }
 */
export function selectNextEdge(definition: WorkflowDefinition, stage: string, input: RouteInput): RouteDecision {
  const out = definition.edges.filter((edge) => edge.from === stage);
  const matching = out.filter((edge) => edge.condition !== undefined && evaluateCondition(edge.condition.expr, input));
  if (matching.length > 0) return { kind: "route", edge: best(matching), reason: "condition" };

  const plain = out.filter((edge) => edge.condition === undefined);
  const preferred = input.preferredLabel === undefined ? "" : normalizeLabel(input.preferredLabel);
  if (preferred !== "") {
    const labelled = plain.filter((edge) => edge.label !== undefined && normalizeLabel(edge.label) === preferred);
    if (labelled.length > 0) return { kind: "route", edge: best(labelled), reason: "preferred_label" };
  }
  for (const id of input.suggestedNextIds ?? []) {
    const suggested = plain.filter((edge) => edge.to === id);
    if (suggested.length > 0) return { kind: "route", edge: best(suggested), reason: "suggested_next" };
  }
  if (plain.length > 0) return { kind: "route", edge: best(plain), reason: "unconditional" };

  const signals = [input.preferredLabel === undefined ? "" : `, preferred label "${input.preferredLabel}"`, input.suggestedNextIds?.length ? `, suggested ${input.suggestedNextIds.join(", ")}` : ""].join("");
  const message =
    out.length === 0
      ? `stage "${stage}" has no outgoing edge (outcome ${input.outcome})`
      : `no edge from stage "${stage}" matches outcome ${input.outcome}${signals}: every edge has a condition that does not hold`;
  return { kind: "no_route", stage, outcome: input.outcome, message };
}

/** Highest weight first, then the target id in code-unit order: the same pick on every machine. */
function best(edges: readonly WorkflowEdge[]): WorkflowEdge {
  return [...edges].sort((a, b) => b.weight - a.weight || (a.to < b.to ? -1 : a.to > b.to ? 1 : 0))[0] as WorkflowEdge;
}
