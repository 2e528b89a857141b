import assert from "node:assert/strict";
import { test } from "node:test";
import { agent, defineWorkflow, edge, exit, start, type EdgeOptions } from "../definition/builder.ts";
import type { WorkflowDefinition } from "../definition/schema.ts";
import { selectNextEdge, type RouteInput } from "./select-edge.ts";

/** A stage "s" with the given out-edges to stages a, b, c, … (all of which exist). */
function from(edges: Array<[string, EdgeOptions?]>): WorkflowDefinition {
  const targets = [...new Set(edges.map(([to]) => to))];
  return defineWorkflow("t", {
    nodes: [start(), agent("s", "S"), ...targets.map((to) => agent(to, to)), exit()],
    edges: [edge("start", "s"), ...edges.map(([to, options]) => edge("s", to, options))],
  });
}

const route = (definition: WorkflowDefinition, input: Partial<RouteInput> = {}) => {
  const decision = selectNextEdge(definition, "s", { outcome: "succeeded", context: {}, ...input });
  return decision.kind === "route" ? `${decision.edge.to} by ${decision.reason}` : `no route: ${decision.message}`;
};

test("a matching condition wins over everything else", () => {
  const definition = from([["a", { label: "Fix" }], ["b", { condition: "outcome=succeeded" }], ["c", { weight: 10 }]]);
  assert.equal(route(definition, { preferredLabel: "fix", suggestedNextIds: ["c"] }), "b by condition");
});

test("among matching conditions: highest weight, then target id", () => {
  const definition = from([["c", { condition: "outcome=succeeded", weight: 1 }], ["b", { condition: "outcome=succeeded", weight: 1 }], ["a", { condition: "outcome=succeeded" }]]);
  assert.equal(route(definition), "b by condition");
  assert.equal(route(from([["a", { condition: "x" }], ["b", { condition: "x", weight: 3 }]]), { context: { x: "1" } }), "b by condition");
});

test("a condition that does not hold is a guard: its edge is never taken, not even by label", () => {
  const definition = from([["a", { label: "Ship", condition: "outcome=succeeded" }], ["b", { label: "Fix" }]]);
  assert.equal(route(definition, { outcome: "failed", preferredLabel: "Ship" }), "b by unconditional");
});

test("then the edge whose label is the preferred label, accelerators and case ignored", () => {
  const definition = from([["a", { label: "[A] Approve" }], ["b", { label: "R) Revise", weight: 5 }], ["c", { label: "S - Skip" }]]);
  assert.equal(route(definition, { preferredLabel: "approve" }), "a by preferred_label");
  assert.equal(route(definition, { preferredLabel: "[S] skip" }), "c by preferred_label");
  assert.equal(route(definition, { preferredLabel: "revise", suggestedNextIds: ["a"] }), "b by preferred_label");
  assert.equal(route(definition, { preferredLabel: "nothing like it" }), "b by unconditional", "an unknown label falls through");
});

test("then the first suggested next id that has an edge", () => {
  const definition = from([["a"], ["b"], ["c", { weight: 9 }]]);
  assert.equal(route(definition, { suggestedNextIds: ["zzz", "b", "a"] }), "b by suggested_next");
});

test("then unconditional edges by weight, then target id (code-unit order)", () => {
  assert.equal(route(from([["b"], ["a"], ["c"]])), "a by unconditional");
  assert.equal(route(from([["b"], ["a"], ["c", { weight: 1 }]])), "c by unconditional");
  assert.equal(route(from([["b"], ["B"]])), "B by unconditional");
  assert.equal(route(from([["a", { weight: -1 }], ["b"]])), "b by unconditional");
});

test("no route: a value naming the stage and the outcome, never a throw", () => {
  const guarded = from([["a", { condition: "outcome=succeeded" }]]);
  const decision = selectNextEdge(guarded, "s", { outcome: "failed", preferredLabel: "x", context: {} });
  assert.deepEqual({ ...decision, message: undefined }, { kind: "no_route", stage: "s", outcome: "failed", message: undefined });
  assert.ok(decision.kind === "no_route");
  assert.equal(decision.message, 'no edge from stage "s" matches outcome failed, preferred label "x": every edge has a condition that does not hold');
  const deadEnd = selectNextEdge(guarded, "a", { outcome: "succeeded", context: {} });
  assert.ok(deadEnd.kind === "no_route");
  assert.equal(deadEnd.message, 'stage "a" has no outgoing edge (outcome succeeded)');
});

test("routing is deterministic: the same input picks the same edge whatever the edge order", () => {
  const forward = from([["a", { weight: 2 }], ["b", { weight: 2 }], ["c"]]);
  const backward = from([["c"], ["b", { weight: 2 }], ["a", { weight: 2 }]]);
  assert.equal(route(forward), route(backward));
});
