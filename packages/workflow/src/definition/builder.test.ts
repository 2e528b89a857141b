import assert from "node:assert/strict";
import { test } from "node:test";
import { isWorkflowError } from "../errors.ts";
import { agent, chain, defineWorkflow, edge, exit, node, start } from "./builder.ts";
import { singleWorkflow } from "./single.ts";

test("stage helpers give the handler's shape and the id as label unless told otherwise", () => {
  assert.deepEqual(node("c", "command"), { id: "c", handler: "command", shape: "parallelogram", label: "c" });
  assert.deepEqual(agent("a", "Do it", { label: "A", shape: "rect" }), { id: "a", handler: "agent", shape: "rect", label: "A", prompt: "Do it" });
});

test("a built definition is checked by the schema: two stages of one name are refused", () => {
  assert.throws(
    () => defineWorkflow("twice", { nodes: [start(), agent("a", "A"), agent("a", "B"), exit()], edges: chain("start", "a", "exit") }),
    (error: unknown) => isWorkflowError(error) && error.code === "bad_definition" && /nodes\.2\.id: two stages are named "a"/.test(error.message),
  );
});

test("a bad condition or stylesheet in the builder throws with the place and a fix", () => {
  assert.throws(() => edge("a", "b", { condition: "outcome=" }), (error: unknown) => isWorkflowError(error) && error.code === "bad_condition");
  assert.throws(
    () => defineWorkflow("s", { model_stylesheet: "* { model }", nodes: [start(), exit()], edges: [] }),
    (error: unknown) => isWorkflowError(error) && /model_stylesheet, line 1, column 11/.test(error.message),
  );
});

test("single: start, one agent stage whose prompt is {{ goal }}, exit", () => {
  const single = singleWorkflow();
  assert.deepEqual(single.nodes.map((n) => [n.id, n.handler, n.prompt]), [["start", "start", undefined], ["task", "agent", "{{ goal }}"], ["exit", "exit", undefined]]);
  assert.deepEqual(single.edges.map((e) => `${e.from}->${e.to}`), ["start->task", "task->exit"]);
});
