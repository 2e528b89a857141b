import assert from "node:assert/strict";
import { test } from "node:test";
import { readWorkflow } from "../definition/from-dot.ts";
import { singleWorkflow } from "../definition/single.ts";
import { parseDot } from "../dot/parser.ts";
import { workflowToDot } from "./to-dot.ts";

test("the DOT Baton writes for drawing: shapes by handler, labels with agent and model, edge labels and conditions", () => {
  const { definition } = readWorkflow(
    `digraph "Fix \\"it\\"" {
      graph [rankdir=LR, model_stylesheet="* { agent: claude; model: sonnet; }"]
      start; exit
      fix [label="Fix\\nthe bug", prompt="p"]
      check [shape=parallelogram, script="npm test", color=red]
      start -> fix -> check
      check -> exit [label="pass", condition="outcome=succeeded"]
      check -> fix [style=dashed]
    }`,
    { file: "wf.dot" },
  );
  assert.ok(definition);
  assert.equal(
    workflowToDot(definition),
    [
      'digraph "Fix \\"it\\"" {',
      '  rankdir="LR";',
      '  "start" [shape="Mdiamond", label="start"];',
      '  "exit" [shape="Msquare", label="exit"];',
      '  "fix" [shape="box", label="Fix\\nthe bug\\nclaude · sonnet"];',
      '  "check" [shape="parallelogram", label="check", color="red"];',
      '  "start" -> "fix";',
      '  "fix" -> "check";',
      '  "check" -> "exit" [label="pass\\n[outcome=succeeded]"];',
      '  "check" -> "fix" [style="dashed"];',
      "}",
      "",
    ].join("\n"),
  );
});

test("what it writes is plain DOT that reads back to the same stages and edges", () => {
  const single = singleWorkflow();
  const parsed = parseDot(workflowToDot(single), "drawn.dot");
  assert.ok(parsed.ok);
  const again = readWorkflow(workflowToDot(single), { file: "drawn.dot" }).definition;
  assert.deepEqual(again?.nodes.map((n) => [n.id, n.handler]), single.nodes.map((n) => [n.id, n.handler]));
  assert.deepEqual(again?.edges.map((e) => [e.from, e.to]), single.edges.map((e) => [e.from, e.to]));
});
