import assert from "node:assert/strict";
import { test } from "node:test";
import { classNameOf, flattenGraph, type FlatGraph } from "./flatten.ts";
import { parseDot } from "./parser.ts";

function flat(text: string): FlatGraph {
  const result = parseDot(text, "t.dot");
  if (!result.ok) assert.fail(result.diagnostic.message);
  return flattenGraph(result.graph);
}

const attrs = (graph: FlatGraph, id: string) => Object.fromEntries([...(graph.nodes.find((n) => n.id === id)?.attrs ?? [])].map(([k, a]) => [k, a.value]));

test("node defaults reach the nodes made after them, not those before", () => {
  const graph = flat("digraph { a; node [timeout=5m]; b; a [label=A] }");
  assert.deepEqual(attrs(graph, "a"), { label: "A" });
  assert.deepEqual(attrs(graph, "b"), { timeout: "5m" });
});

test("a subgraph's defaults stay inside it, and inherit the outer ones", () => {
  const graph = flat("digraph { node [timeout=5m]; subgraph s { node [thread_id=t]; inner }; outer }");
  assert.deepEqual(attrs(graph, "inner"), { timeout: "5m", thread_id: "t" });
  assert.deepEqual(attrs(graph, "outer"), { timeout: "5m" });
});

test("an attribute written on the node wins over the default, and defaults are marked as such", () => {
  const graph = flat("digraph { node [timeout=5m, shape=box]; a [timeout=1m] }");
  const a = graph.nodes[0];
  assert.deepEqual([a?.attrs.get("timeout")?.value, a?.attrs.get("timeout")?.fromDefault, a?.attrs.get("shape")?.fromDefault], ["1m", false, true]);
});

test("a subgraph label becomes a class of every node in it, nested ones too, outermost first", () => {
  const graph = flat('digraph { subgraph cluster_a { label="Loop A"; x; subgraph b { graph [label="Inner Part"]; y } } z }');
  assert.deepEqual(graph.nodes.map((n) => [n.id, n.subgraphClasses]), [["x", ["loop-a"]], ["y", ["loop-a", "inner-part"]], ["z", []]]);
});

test("a label given after the nodes still classes them", () => {
  const graph = flat('digraph { subgraph { a; b; label="Late" } }');
  assert.deepEqual(graph.nodes.map((n) => n.subgraphClasses), [["late"], ["late"]]);
});

test("chained edges expand pairwise with the shared attributes and the edge defaults", () => {
  const graph = flat('digraph { edge [weight=2]; a -> b -> c [label="x"] }');
  assert.deepEqual(graph.edges.map((e) => `${e.from}->${e.to} ${e.attrs.get("label")?.value} ${e.attrs.get("weight")?.value}`), ["a->b x 2", "b->c x 2"]);
});

test("a subgraph operand connects to each of its nodes", () => {
  const graph = flat("digraph { a -> { b c } -> d }");
  assert.deepEqual(graph.edges.map((e) => `${e.from}->${e.to}`), ["a->b", "a->c", "b->d", "c->d"]);
});

test("nodes named only by edges exist, undeclared; a node statement declares", () => {
  const graph = flat("digraph { a -> b; b [label=B] }");
  assert.deepEqual(graph.nodes.map((n) => [n.id, n.declared]), [["a", false], ["b", true]]);
});

test("graph attributes come from graph [...] and key=value at the top, not from inside subgraphs", () => {
  const graph = flat('digraph { graph [goal=g]; rankdir=LR; subgraph s { label="S" } }');
  assert.deepEqual([...graph.attrs.keys()], ["goal", "rankdir"]);
  assert.deepEqual(graph.subgraphs.map((s) => [s.id, s.attrs.get("label")?.value]), [["s", "S"]]);
});

test("class names from labels: lower case, runs of other characters one dash", () => {
  assert.equal(classNameOf("Implementation"), "implementation");
  assert.equal(classNameOf("Loop A"), "loop-a");
  assert.equal(classNameOf("  Review & Merge!! "), "review-merge");
});
