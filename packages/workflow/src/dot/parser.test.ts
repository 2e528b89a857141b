import assert from "node:assert/strict";
import { test } from "node:test";
import type { DotGraph, DotStatement } from "./ast.ts";
import { parseDot } from "./parser.ts";

function parse(text: string): DotGraph {
  const result = parseDot(text, "t.dot");
  if (!result.ok) assert.fail(`did not parse: ${result.diagnostic.message}`);
  return result.graph;
}

/** The attributes of a statement as key=value text, for short assertions. */
const attrsOf = (statement: DotStatement | undefined) =>
  statement !== undefined && "attrs" in statement ? statement.attrs.map((a) => `${a.key}=${a.value.text}`) : [];

test("a digraph may be named (a word or a quoted string) or not", () => {
  assert.equal(parse("digraph Review {}").name, "Review");
  assert.equal(parse('digraph "fan-out review" {}').name, "fan-out review");
  assert.equal(parse("digraph {}").name, undefined);
  assert.equal(parse("DiGraph X {}").name, "X", "keywords are case-insensitive");
});

test("attributes may be separated by whitespace, commas or semicolons, and lists repeated", () => {
  const [node] = parse("digraph { a [x=1, y=2; z=3 w=4][v=5] }").body;
  assert.deepEqual(attrsOf(node), ["x=1", "y=2", "z=3", "w=4", "v=5"]);
});

test("values keep how they read: quoted strings, words, numbers, durations, booleans", () => {
  const [node] = parse('digraph { a [s="text", w=gpt-5.2, i=3, f=0.5, d=30s, b=true] }').body;
  assert.ok(node?.kind === "node");
  assert.deepEqual(node.attrs.map((a) => a.value.literal), ["string", "word", "integer", "float", "duration", "boolean"]);
});

test("dotted keys, quoted keys and DOT's + concatenation of strings", () => {
  const [node] = parse('digraph { gate [human.default_choice=approve, "odd key"=1, prompt="one " + "two"] }').body;
  assert.deepEqual(attrsOf(node), ["human.default_choice=approve", "odd key=1", "prompt=one two"]);
});

test("graph, node and edge defaults, and key=value graph attributes at the top", () => {
  const body = parse('digraph { graph [goal="g"] node [shape=box] edge [weight=2] rankdir=LR; label="L" }').body;
  assert.deepEqual(body.map((s) => s.kind), ["attr_stmt", "attr_stmt", "attr_stmt", "assign", "assign"]);
  assert.deepEqual(body.slice(0, 3).map((s) => (s.kind === "attr_stmt" ? s.target : "")), ["graph", "node", "edge"]);
});

test("a chained edge keeps every operand and its attributes once", () => {
  const [edge] = parse('digraph { a -> b -> c [label="x"] }').body;
  assert.ok(edge?.kind === "edge");
  assert.deepEqual(edge.operands.map((o) => (o.kind === "node_ref" ? o.id : "{}")), ["a", "b", "c"]);
  assert.deepEqual(attrsOf(edge), ["label=x"]);
});

test("subgraphs: named, anonymous, nested, and as an edge operand", () => {
  const body = parse("digraph { subgraph cluster_a { label=A; subgraph inner { x } } { y } a -> { b c } }").body;
  assert.deepEqual(body.map((s) => s.kind), ["subgraph", "subgraph", "edge"]);
  const [named, anonymous] = body;
  assert.ok(named?.kind === "subgraph" && anonymous?.kind === "subgraph");
  assert.equal(named.id, "cluster_a");
  assert.equal(anonymous.id, undefined);
  assert.deepEqual(named.body.map((s) => s.kind), ["assign", "subgraph"]);
});

test("statements may end in ; or not; quoted node ids and numeric ids are ids", () => {
  const body = parse('digraph { "my node"; 1 -> 2; b\n c }').body;
  assert.deepEqual(body.map((s) => (s.kind === "node" ? s.id : s.kind)), ["my node", "edge", "b", "c"]);
});

test("each statement and attribute keeps its position", () => {
  const [, node] = parse('digraph {\n  start\n  plan [prompt="p"]\n}').body;
  assert.ok(node?.kind === "node");
  assert.deepEqual([node.pos.line, node.pos.column], [3, 3]);
  assert.deepEqual([node.attrs[0]?.keyPos.column, node.attrs[0]?.value.pos.column], [9, 16]);
});

test("real-file shapes: multi-line prompts, stylesheets with # and { }, comments between attributes", () => {
  const text = `digraph Real {
    graph [
        goal="Ship it", // the goal
        model_stylesheet="
            *       { model: haiku; }
            #review { model: sonnet; }
        "
    ]
    review [label="Review", /* inline */ prompt="Look at the diff.
Answer with {\\"preferred_next_label\\": \\"fix\\"}."]
}`;
  const [graph, review] = parse(text).body;
  assert.deepEqual(attrsOf(graph)[0], "goal=Ship it");
  assert.match(attrsOf(graph)[1] ?? "", /#review \{ model: sonnet; \}/);
  assert.equal(review?.kind === "node" ? review.attrs[1]?.value.text : "", 'Look at the diff.\nAnswer with {"preferred_next_label": "fix"}.');
});
