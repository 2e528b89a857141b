import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { WorkflowDefinition } from "../definition/schema.ts";
import { gateChoices, matchGateAnswer } from "../gate/options.ts";
import { loadWorkflow } from "../lookup/load.ts";
import { selectNextEdge } from "../route/select-edge.ts";
import { resolveNodeStyle } from "../stylesheet/resolve.ts";

/** The example workflows the docs ship (docs/workflows/). */
const DOCS = join(import.meta.dirname, "..", "..", "..", "..", "docs", "workflows");

async function example(name: string): Promise<WorkflowDefinition> {
  const loaded = await loadWorkflow(join(DOCS, name), { cwd: DOCS, projectRoot: DOCS });
  assert.ok(loaded.definition);
  return loaded.definition;
}

const next = (definition: WorkflowDefinition, stage: string, outcome: "succeeded" | "failed", preferredLabel?: string) => {
  const decision = selectNextEdge(definition, stage, { outcome, preferredLabel, context: {} });
  return decision.kind === "route" ? decision.edge.to : decision.message;
};

test("every example workflow in the docs checks clean: no error, no warning", async () => {
  const names = (await readdir(DOCS)).filter((name) => name.endsWith(".dot"));
  assert.ok(names.includes("plan-approve-implement.dot") && names.includes("parallel-review.dot"));
  for (const name of names) {
    const loaded = await loadWorkflow(join(DOCS, name), { cwd: DOCS, projectRoot: DOCS });
    assert.deepEqual(loaded.diagnostics, [], name);
  }
});

test("plan-approve-implement: plan → approve → implement → check ⇄ fix → exit", async () => {
  const definition = await example("plan-approve-implement.dot");
  const handler = (id: string) => definition.nodes.find((n) => n.id === id)?.handler;
  assert.deepEqual(["plan", "approve", "implement", "check", "fix"].map(handler), ["agent", "human", "agent", "command", "agent"]);
  assert.equal(next(definition, "plan", "succeeded"), "approve");
  const choices = gateChoices(definition, "approve");
  assert.deepEqual(choices.options.map((o) => o.text), ["Approve", "Revise"]);
  assert.equal(next(definition, "approve", "succeeded", matchGateAnswer(choices, "a")?.label), "implement");
  assert.equal(next(definition, "approve", "succeeded", matchGateAnswer(choices, "revise")?.label), "plan");
  assert.equal(next(definition, "check", "failed"), "fix");
  assert.equal(next(definition, "fix", "succeeded"), "check");
  assert.equal(next(definition, "check", "succeeded"), "exit");
  assert.deepEqual([resolveNodeStyle(definition, "implement").agent, resolveNodeStyle(definition, "implement").model], ["claude", "sonnet"]);
});

test("parallel-review: a fan-out to three reviewers, a fan-in, a summary", async () => {
  const definition = await example("parallel-review.dot");
  const fanOut = definition.edges.filter((e) => e.from === "review").map((e) => e.to);
  assert.deepEqual(fanOut, ["correctness", "security", "tests"]);
  assert.ok(fanOut.every((id) => definition.edges.some((e) => e.from === id && e.to === "gather")));
  assert.deepEqual(["review", "gather", "summarize"].map((id) => definition.nodes.find((n) => n.id === id)?.handler), ["parallel", "fan_in", "agent"]);
  assert.equal(next(definition, "gather", "succeeded"), "summarize");
  assert.equal(resolveNodeStyle(definition, "summarize").model, "sonnet");
});
