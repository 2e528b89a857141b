import assert from "node:assert/strict";
import { test } from "node:test";
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from "./graph-layout.ts";

const review = {
  nodes: [{ id: "start", handler: "start" }, { id: "plan" }, { id: "check" }, { id: "approve" }, { id: "exit", handler: "exit" }],
  edges: [
    { from: "start", to: "plan" },
    { from: "plan", to: "check" },
    { from: "check", to: "approve", label: "ok" },
    { from: "check", to: "plan" },
    { from: "approve", to: "exit", label: "[A] Approve" },
    { from: "approve", to: "plan", label: "[R] Revise" },
  ],
};

test("each node is one layer after the latest of its predecessors; the edges that close a loop go back, under the nodes", () => {
  const layout = layoutGraph(review);
  assert.deepEqual(layout.nodes.map((node) => [node.id, node.layer]), [["start", 0], ["plan", 1], ["check", 2], ["approve", 3], ["exit", 4]]);
  assert.deepEqual(layout.edges.filter((edge) => edge.back).map((edge) => `${edge.from}->${edge.to}`), ["check->plan", "approve->plan"]);
  const lowest = Math.max(...layout.nodes.map((node) => node.y + NODE_HEIGHT));
  for (const edge of layout.edges.filter((e) => e.back)) assert.ok(edge.labelY > lowest, `${edge.from}->${edge.to} runs under the nodes`);
  assert.ok(layout.height > lowest, "room for the back edges");
  assert.equal(layout.edges.find((edge) => edge.to === "exit")?.label, "[A] Approve");
});

test("branches of a fan-out stack in one layer, ordered and centred, inside the drawing", () => {
  const layout = layoutGraph({
    nodes: [{ id: "start", handler: "start" }, { id: "fan" }, { id: "a" }, { id: "b" }, { id: "c" }, { id: "join" }, { id: "exit" }],
    edges: ["a", "b", "c"].flatMap((id) => [{ from: "fan", to: id }, { from: id, to: "join" }]).concat([{ from: "start", to: "fan" }, { from: "join", to: "exit" }]),
  });
  const at = new Map(layout.nodes.map((node) => [node.id, node]));
  assert.deepEqual(["a", "b", "c"].map((id) => at.get(id)!.layer), [2, 2, 2]);
  assert.ok(at.get("a")!.y < at.get("b")!.y && at.get("b")!.y < at.get("c")!.y);
  assert.equal(at.get("fan")!.y, at.get("b")!.y, "a single node sits in the middle of its column");
  assert.equal(at.get("join")!.layer, 3);
  for (const node of layout.nodes) {
    assert.ok(node.x >= 0 && node.x + NODE_WIDTH <= layout.width, node.id);
    assert.ok(node.y >= 0 && node.y + NODE_HEIGHT <= layout.height, node.id);
  }
  assert.ok(layout.edges.every((edge) => !edge.back && /^M[\d. ]+ C[\d. ]+$/.test(edge.path)));
});

test("nodes the start does not reach, edges to unknown nodes and self-loops are drawn without failing", () => {
  const layout = layoutGraph({
    nodes: [{ id: "start", handler: "start" }, { id: "a" }, { id: "orphan" }],
    edges: [{ from: "start", to: "a" }, { from: "a", to: "a" }, { from: "a", to: "ghost" }],
  });
  assert.deepEqual(layout.nodes.map((node) => node.id), ["start", "a", "orphan"]);
  assert.deepEqual(layout.edges.map((edge) => [edge.from, edge.to, edge.back]), [["start", "a", false], ["a", "a", true]]);
  assert.deepEqual(layoutGraph({ nodes: [], edges: [] }).nodes, []);
});
