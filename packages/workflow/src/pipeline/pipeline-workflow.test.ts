import assert from "node:assert/strict";
import { test } from "node:test";
import { checkWorkflow } from "../check/check.ts";
import { pipelineWorkflow } from "./pipeline-workflow.ts";
import { parseSubtaskList } from "./subtask-list.ts";

const check = (options: Parameters<typeof pipelineWorkflow>[0]) => checkWorkflow(pipelineWorkflow(options), { file: "pipeline", fileExists: () => true, baseDir: "/", homeDir: "/" });

test("the built-in pipeline checks clean, with and without gates, merging or opening a pull request", () => {
  for (const options of [{}, { approvals: ["plan", "merge"] as const }, { approvals: ["spec", "plan", "review", "merge"] as const, delivery: "pull_request" as const, maxParallel: 2 }]) {
    const errors = check({ ...options, approvals: options.approvals === undefined ? undefined : [...options.approvals] }).filter((d) => d.severity === "error");
    assert.deepEqual(errors, [], JSON.stringify(options));
  }
});

test("without validation commands the pipeline has no validate or fix stage: built work goes to review", () => {
  const plain = pipelineWorkflow({ validates: false });
  assert.equal(plain.nodes.some((n) => n.id === "check" || n.id === "fix"), false);
  assert.ok(plain.edges.some((e) => e.from === "build" && e.to === "review"));
  assert.deepEqual(check({ validates: false }).filter((d) => d.severity === "error"), []);
});

test("approvals put a gate after the stages they name; the delivery stage merges or opens a pull request", () => {
  const plain = pipelineWorkflow();
  assert.equal(plain.nodes.some((n) => n.handler === "human"), false);
  assert.equal(plain.nodes.find((n) => n.id === "deliver")?.handler, "merge");
  const gated = pipelineWorkflow({ approvals: ["plan", "merge"], delivery: "pull_request", maxParallel: 3 });
  assert.deepEqual(gated.nodes.filter((n) => n.handler === "human").map((n) => n.id).sort(), ["approve_merge", "approve_plan"]);
  assert.ok(gated.edges.some((e) => e.from === "plan" && e.to === "approve_plan"));
  assert.ok(gated.edges.some((e) => e.from === "approve_plan" && e.to === "subtasks"));
  assert.ok(gated.edges.some((e) => e.from === "review" && e.to === "approve_merge"));
  assert.equal(gated.nodes.find((n) => n.id === "deliver")?.handler, "pull_request");
  assert.equal(gated.nodes.find((n) => n.id === "build_each")?.max_parallel, 3);
  assert.match(gated.nodes.find((n) => n.id === "plan")?.prompt ?? "", /"subtasks": \[/);
});

test("a subtask list is read and checked: a bad one names where it is wrong", () => {
  const good = parseSubtaskList(JSON.stringify({ subtasks: [{ id: "a", title: "A", prompt: "Do A" }, { id: "b-2", title: "B", prompt: "Do B", files: ["b.txt"] }] }));
  assert.deepEqual("subtasks" in good ? good.subtasks.map((s) => s.id) : good, ["a", "b-2"]);
  const bad: Array<[string, RegExp]> = [
    ["not json", /^it is not JSON/],
    [JSON.stringify({ subtasks: [] }), /^subtasks: /],
    [JSON.stringify({ subtasks: [{ id: "A B", title: "x", prompt: "y" }] }), /^subtasks\.0\.id: lowercase letters/],
    [JSON.stringify({ subtasks: [{ id: "a", title: "x", prompt: "y" }, { id: "a", title: "z", prompt: "w" }] }), /^subtasks\.1\.id: "a" is given twice/],
    [JSON.stringify({ subtasks: [{ id: "a", title: "x" }] }), /^subtasks\.0\.prompt: /],
    [JSON.stringify({ tasks: [] }), /tasks|subtasks/],
  ];
  for (const [text, expected] of bad) {
    const parsed = parseSubtaskList(text);
    assert.match("problem" in parsed ? parsed.problem : "(accepted)", expected, text);
  }
});
