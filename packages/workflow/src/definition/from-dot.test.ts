import assert from "node:assert/strict";
import { test } from "node:test";
import { agent, chain, command, defineWorkflow, edge, exit, foreach, human, start, wait } from "./builder.ts";
import { readWorkflow } from "./from-dot.ts";
import type { WorkflowDefinition } from "./schema.ts";

function read(text: string) {
  const result = readWorkflow(text, { file: "wf.dot" });
  assert.ok(result.definition, "parses");
  return { definition: result.definition, found: result.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.line}:${d.column}`) };
}

const handlers = (definition: WorkflowDefinition) => Object.fromEntries(definition.nodes.map((n) => [n.id, n.handler]));

test("handlers come from type=, then a shape on the node, then the id, then a default shape, then box", () => {
  const { definition } = read(`digraph {
    node [shape=tab]
    start; exit; End
    a [type=command, shape=hexagon]
    b [shape=diamond]
    c
    d [type="wait.human"]
    e [type=codergen]
    f [type="parallel.fan_in"]
    Start [shape=box]
  }`);
  assert.deepEqual(handlers(definition), { start: "start", exit: "exit", End: "exit", a: "command", b: "conditional", c: "prompt", d: "human", e: "agent", f: "fan_in", Start: "agent" });
});

test("every shape of the dialect selects its handler", () => {
  const shapes = ["Mdiamond", "Msquare", "box", "tab", "parallelogram", "hexagon", "diamond", "component", "tripleoctagon", "insulator", "house"];
  const { definition } = read(`digraph { ${shapes.map((shape, i) => `n${i} [shape=${shape}]`).join("; ")} }`);
  assert.deepEqual(Object.values(handlers(definition)), ["start", "exit", "agent", "prompt", "command", "human", "conditional", "parallel", "fan_in", "wait", "subworkflow"]);
});

test("values are typed: durations in ms, counts, booleans, numbers; raw text kept beside them", () => {
  const { definition, found } = read(`digraph {
    graph [stall_timeout="0", max_node_visits=6]
    w [shape=insulator, duration=1d, timeout="250ms", goal_gate=TRUE, max_retries="2"]
    w -> w [weight=-2.5]
  }`);
  const w = definition.nodes[0];
  assert.deepEqual([w?.duration_ms, w?.timeout_ms, w?.goal_gate, w?.max_retries], [86_400_000, 250, true, 2]);
  assert.deepEqual([definition.graph.stall_timeout_ms, definition.graph.max_node_visits], [0, 6]);
  assert.equal(definition.edges[0]?.weight, -2.5);
  assert.deepEqual(w?.attributes, { shape: "insulator", duration: "1d", timeout: "250ms", goal_gate: "TRUE", max_retries: "2" });
  assert.deepEqual(found, [], "w is no agent, so its missing prompt is the checker's business, not the reader's");
});

test("a bad value is an error at the value and leaves the field out", () => {
  const { definition, found } = read('digraph {\n  a [timeout=soon, max_visits=2.5, join_policy=any]\n}');
  assert.deepEqual(found, ["error bad-value 2:14", "error bad-value 2:31", "error bad-value 2:48"]);
  assert.equal(definition.nodes[0]?.timeout_ms, undefined);
});

test("unknown attributes are warnings with a guess; drawing attributes pass; defaults warn once at their place", () => {
  const { found } = read('digraph {\n  node [colour=red, color=blue]\n  a [label="A", promt="x", tooltip="t"]\n  b [label="B"]\n}');
  assert.deepEqual(found, ["warning unknown-attribute 2:9", "warning unknown-attribute 3:17"]);
  const guess = readWorkflow('digraph { a [promt="x"] }', { file: "wf.dot" }).diagnostics[0];
  assert.equal(guess?.fix, 'did you mean "prompt"?');
});

test("a condition that does not parse is an error at its column in the file", () => {
  const { definition, found } = read('digraph {\n  a -> b [condition="outcome=succeeded || (x)"]\n}');
  assert.deepEqual(found.filter((f) => f.includes("condition")), ["error condition-syntax 2:43"]);
  assert.equal(definition.edges[0]?.condition, undefined);
});

test("a stylesheet error points at its line in the file", () => {
  const { found } = read('digraph {\n  graph [model_stylesheet="\n    * { model: m; }\n    .x { agent }\n  "]\n}');
  assert.deepEqual(found, ["error stylesheet 4:16"]);
});

test("class= lists classes separated by commas or spaces, before those of subgraph labels", () => {
  const { definition } = read('digraph { subgraph { label="Build"; a [class="coding, critical fast"] } }');
  assert.deepEqual(definition.nodes[0]?.classes, ["coding", "critical", "fast", "build"]);
});

test("an unnamed graph takes the file's name; every element records where it stands", () => {
  const result = readWorkflow("digraph {\n  a [label=A]\n  a -> b\n}", { file: "dir/my-flow.dot", path: "/abs/dir/my-flow.dot" });
  assert.equal(result.definition?.name, "my-flow");
  assert.equal(result.definition?.file, "/abs/dir/my-flow.dot");
  assert.deepEqual(result.definition?.nodes[0]?.source, { line: 2, column: 3, attributes: { label: { line: 2, column: 12 } } });
  assert.deepEqual([result.definition?.edges[0]?.source?.line, result.definition?.edges[0]?.source?.column], [3, 3]);
});

test("a file that does not parse has no definition and one diagnostic", () => {
  const result = readWorkflow("digraph { a -- b }", { file: "wf.dot" });
  assert.equal(result.definition, undefined);
  assert.deepEqual(result.diagnostics.map((d) => d.rule), ["undirected-edge"]);
});

/** Without where things stand and the raw text: what the builder makes too. */
function meaning(definition: WorkflowDefinition): unknown {
  return {
    ...definition,
    graph: { ...definition.graph, attributes: {}, source: undefined },
    nodes: definition.nodes.map((n) => ({ ...n, attributes: {}, source: undefined })),
    edges: definition.edges.map((e) => ({ ...e, attributes: {}, source: undefined })),
  };
}

test("the TypeScript builder makes the same definition as the DOT text that says the same", () => {
  const text = `digraph Fix {
    graph [goal="Make the tests pass", max_node_visits=3, model_stylesheet="* { agent: claude; }"]
    start [shape=Mdiamond]
    exit [shape=Msquare]
    fix [prompt="Fix the failing test", max_visits=3, timeout=10m]
    check [shape=parallelogram, script="npm test"]
    ask [shape=hexagon, label="Ship?", human.default_choice=yes]
    pause [shape=insulator, duration=30s]
    each [type=foreach, over="context.items"]
    start -> fix -> check
    check -> ask [condition="outcome=succeeded", weight=2]
    check -> fix
    ask -> pause [label="[Y] yes"]
    ask -> fix [label="[N] no"]
    pause -> each -> exit
  }`;
  const built = defineWorkflow("Fix", {
    goal: "Make the tests pass",
    max_node_visits: 3,
    model_stylesheet: "* { agent: claude; }",
    nodes: [
      start(),
      exit(),
      agent("fix", "Fix the failing test", { max_visits: 3, timeout_ms: 600_000 }),
      command("check", "npm test"),
      human("ask", "Ship?", { default_choice: "yes" }),
      wait("pause", 30_000),
      foreach("each", "context.items"),
    ],
    edges: [
      ...chain("start", "fix", "check"),
      edge("check", "ask", { condition: "outcome=succeeded", weight: 2 }),
      edge("check", "fix"),
      edge("ask", "pause", { label: "[Y] yes" }),
      edge("ask", "fix", { label: "[N] no" }),
      ...chain("pause", "each", "exit"),
    ],
  });
  assert.deepEqual(meaning(read(text).definition), meaning(built));
});
