import assert from "node:assert/strict";
import { test } from "node:test";
import { parseScenario, scenarioFor, scenarioSteps, ScenarioError } from "./scenario.ts";

test("a bare name is a scenario with its defaults", () => {
  assert.deepEqual(parseScenario("write"), { name: "write", path: "twin.txt", content: "written by the model twin\n" });
  assert.deepEqual(parseScenario("text"), { name: "text" });
});

test("an unknown scenario name is a one-line error listing the known ones", () => {
  assert.throws(() => parseScenario("wirte"), { name: "ScenarioError", message: 'unknown scenario "wirte"; known: text, write, run, steps, by_prompt' });
  assert.throws(() => parseScenario({ path: "a" }), { message: "unknown scenario undefined; known: text, write, run, steps, by_prompt" });
  assert.throws(() => parseScenario(42), ScenarioError);
  assert.throws(() => parseScenario(["write"]), /a scenario is a name or an object/);
});

test("missing or wrong fields name the field", () => {
  assert.throws(() => parseScenario("run"), /^ScenarioError: scenario "run": command: /);
  assert.throws(() => parseScenario({ name: "steps", steps: [] }), /scenario "steps": steps: /);
  assert.throws(() => parseScenario({ name: "write", colour: "red" }), /scenario "write": scenario: Unrecognized key: "colour"/);
  assert.throws(() => parseScenario({ name: "text", fault: { kind: "status", status: 418 } }), /scenario "text": fault.status: /);
  assert.throws(() => parseScenario({ name: "text", fault: { kind: "explode" } }), /scenario "text": fault.kind: /);
});

test("faults get their defaults: main conversation only, every time, stall after two chunks", () => {
  assert.deepEqual(parseScenario({ name: "text", fault: { kind: "stall" } }).fault, { kind: "stall", afterChunks: 2, on: "main" });
  assert.deepEqual(parseScenario({ name: "text", fault: { kind: "status", status: 429, retryAfter: 2, times: 1, on: "any" } }).fault, {
    kind: "status",
    status: 429,
    retryAfter: 2,
    times: 1,
    on: "any",
  });
});

test("each scenario plays its steps", () => {
  assert.deepEqual(scenarioSteps(parseScenario("text")), []);
  assert.deepEqual(scenarioSteps(parseScenario({ name: "run", command: "ls" })), [{ run: "ls" }]);
  const steps = [{ write: { path: "a", content: "b" } }, { run: "cat a" }];
  assert.deepEqual(scenarioSteps(parseScenario({ name: "steps", steps })), steps);
});

test("by_prompt plays the first case whose text the last user message contains, else otherwise", () => {
  const scenario = parseScenario({
    name: "by_prompt",
    cases: [
      { contains: "Plan stage", scenario: { name: "text", reply: "1. write the file" } },
      { contains: "Implement stage", scenario: { name: "write", path: "a.txt", fault: { kind: "slow", delayMs: 5 } } },
    ],
    fault: { kind: "status", status: 529, times: 1 },
  });
  assert.deepEqual(scenarioFor(scenario, "Plan stage: say how"), { name: "text", reply: "1. write the file", fault: { kind: "status", status: 529, times: 1, on: "main" } });
  assert.deepEqual(scenarioFor(scenario, "<context/>\nImplement stage: do it"), { name: "write", path: "a.txt", content: "written by the model twin\n", fault: { kind: "slow", delayMs: 5, on: "main" } });
  assert.deepEqual(scenarioFor(scenario, "something else"), { name: "text", fault: { kind: "status", status: 529, times: 1, on: "main" } });
  assert.deepEqual(scenarioFor(parseScenario("write"), "anything"), parseScenario("write"), "other scenarios play as they are");
  assert.throws(() => parseScenario({ name: "by_prompt", cases: [] }), /scenario "by_prompt": cases: /);
  assert.throws(() => parseScenario({ name: "by_prompt", cases: [{ contains: "x", scenario: { name: "by_prompt", cases: [] } }] }), /scenario "by_prompt": cases.0.scenario.name: /);
});
