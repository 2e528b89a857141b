import assert from "node:assert/strict";
import { test } from "node:test";
import { agent, chain, command, defineWorkflow, edge, exit, fanIn, foreach, parallel, start } from "../definition/builder.ts";
import { branchTargets, fanInOf } from "./fan-out.ts";

const fanOut = defineWorkflow("fan", {
  nodes: [start(), parallel("fan"), agent("a", "A."), agent("a2", "A again."), agent("b", "B."), fanIn("gather"), fanIn("late"), agent("after", "After."), exit()],
  edges: [...chain("start", "fan", "a", "a2", "late"), edge("fan", "b"), edge("fan", "a"), ...chain("b", "gather", "after", "exit"), edge("late", "exit")],
});

test("a fan-out's branches start at its out-edges' targets, in edge order, each once", () => {
  assert.deepEqual(branchTargets(fanOut, "fan"), ["a", "b"]);
});

test("the fan-in is the first fan_in stage reached breadth first, not the first one along the first branch", () => {
  assert.equal(fanInOf(fanOut, "fan"), "gather");
});

test("a foreach's fan-in is found the same way; a fan-out that reaches none has none", () => {
  const each = defineWorkflow("each", {
    nodes: [start(), foreach("each", "context.subtasks"), command("build", "make"), fanIn("done"), exit()],
    edges: chain("start", "each", "build", "done", "exit"),
  });
  assert.equal(fanInOf(each, "each"), "done");
  const none = defineWorkflow("none", { nodes: [start(), parallel("fan"), agent("a", "A."), exit()], edges: chain("start", "fan", "a", "exit") });
  assert.equal(fanInOf(none, "fan"), undefined);
});

test("a loop inside a branch does not keep the search from ending", () => {
  const loop = defineWorkflow("loop", {
    nodes: [start(), parallel("fan"), agent("a", "A."), command("check", "true"), exit()],
    edges: [...chain("start", "fan", "a", "check", "a"), edge("check", "exit")],
  });
  assert.equal(fanInOf(loop, "fan"), undefined);
});
