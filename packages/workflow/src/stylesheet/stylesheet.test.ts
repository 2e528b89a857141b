import assert from "node:assert/strict";
import { test } from "node:test";
import { agent, command, defineWorkflow, exit, node, start } from "../definition/builder.ts";
import { parseStylesheet } from "./parse.ts";
import { resolveNodeStyle } from "./resolve.ts";

test("selectors *, shape, .class and #id, with specificity 0 to 3; a selector list is a rule each", () => {
  const { rules, problems } = parseStylesheet(`
    /* defaults */
    * { model: haiku; }
    box { model: box-model }
    .coding, #review { agent: codex; model: "gpt-5.2"; }
  `);
  assert.deepEqual(problems, []);
  assert.deepEqual(rules.map((r) => [r.selector, r.specificity]), [
    [{ kind: "universal" }, 0],
    [{ kind: "shape", shape: "box" }, 1],
    [{ kind: "class", name: "coding" }, 2],
    [{ kind: "id", id: "review" }, 3],
  ]);
  assert.deepEqual(rules[3]?.declarations, [{ property: "agent", value: "codex" }, { property: "model", value: "gpt-5.2" }]);
});

test("the last ; may be left out; rules may share a line; unknown properties warn, backend is ignored", () => {
  const { rules, problems } = parseStylesheet("*{model:a}.x{provider:openai;reasoning_effort:low;backend:cli;colour:red}");
  assert.equal(rules.length, 2);
  assert.deepEqual(problems.map((p) => `${p.severity} ${p.rule} ${p.line}:${p.column}`), ["warning ignored-attribute 1:51", "warning unknown-attribute 1:63"]);
});

test("syntax errors stop the parse with a line, a column and a fix", () => {
  const cases: Array<[string, string]> = [
    ["* { model haiku; }", '1:11 expected ":" after "model", found "haiku; }"'],
    ["*  model: x; }", '1:4 expected "{" after the selector, found "model: x; "'],
    ["\n\n  .coding { model: }", '3:20 "model" has no value'],
    ["* { model: a;", "1:14 a rule's { is never closed"],
    ["{ model: a }", '1:1 expected a selector (*, SHAPE, .class or #id), found "{ model: a"'],
    ["* { : a }", '1:5 expected a property name, found ": a }"'],
  ];
  for (const [text, expected] of cases) {
    const problem = parseStylesheet(text).problems.find((p) => p.severity === "error");
    assert.equal(problem === undefined ? "none" : `${problem.line}:${problem.column} ${problem.message}`, expected, text);
    assert.ok(problem?.fix);
  }
});

const definition = defineWorkflow("styled", {
  model_stylesheet: `
    * { agent: claude; model: haiku; reasoning_effort: low }
    box { model: box-default }
    .coding { model: sonnet; }
    .critical { model: opus; }
    #review { agent: gemini; }
    .coding { reasoning_effort: high }
  `,
  nodes: [
    start(),
    agent("plan", "Plan"),
    agent("implement", "Implement", { classes: ["coding", "critical"] }),
    agent("review", "Review", { classes: ["coding"], model: "gpt-5.2" }),
    node("summary", "prompt", { prompt: "Sum up" }),
    command("test", "npm test"),
    exit(),
  ],
  edges: [],
});

test("each property: the node's own attribute, else the most specific rule, a later rule winning a tie", () => {
  assert.deepEqual(resolveNodeStyle(definition, "plan"), { agent: "claude", model: "box-default", reasoning_effort: "low", from: { agent: "*", model: "box", reasoning_effort: "*" } });
  assert.deepEqual(resolveNodeStyle(definition, "implement"), { agent: "claude", model: "opus", reasoning_effort: "high", from: { agent: "*", model: ".critical", reasoning_effort: ".coding" } });
  assert.deepEqual(resolveNodeStyle(definition, "review"), { agent: "gemini", model: "gpt-5.2", reasoning_effort: "high", from: { agent: "#review", model: "node", reasoning_effort: ".coding" } });
  assert.deepEqual(resolveNodeStyle(definition, "summary"), { agent: "claude", model: "haiku", reasoning_effort: "low", from: { agent: "*", model: "*", reasoning_effort: "*" } });
});

test("a stage the stylesheet does not reach, or an unknown stage, has nothing set", () => {
  const bare = defineWorkflow("bare", { nodes: [start(), agent("a", "A"), exit()], edges: [] });
  assert.deepEqual(resolveNodeStyle(bare, "a"), { from: {} });
  assert.deepEqual(resolveNodeStyle(definition, "nope"), { from: {} });
});
