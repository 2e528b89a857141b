import assert from "node:assert/strict";
import { test } from "node:test";
import type { WalkNode } from "../workflow-router.ts";
import { branchIdOf, DEFAULT_MAX_PARALLEL, planBranches } from "./branch-plan.ts";

function node(fields: Partial<WalkNode> & Pick<WalkNode, "id" | "handler">): WalkNode {
  return { label: fields.id, goal_gate: false, allow_partial: false, auto_status: false, freeform: false, ...fields };
}

const fan = node({ id: "fan", handler: "parallel" });

test("a parallel stage has a branch per out-edge, named after its target, all at once by default", () => {
  const plan = planBranches({ node: fan, targets: ["security", "tests", "style"], fanIn: "gather", context: {}, visit: 1 });
  assert.deepEqual(plan, {
    branches: [{ branch: "security", target: "security" }, { branch: "tests", target: "tests" }, { branch: "style", target: "style" }],
    joinPolicy: "wait_all",
    maxParallel: 3,
    fanIn: "gather",
  });
});

test("branch ids are safe in a git branch and a folder name, unique, and carry the visit after the first", () => {
  const plan = planBranches({ node: node({ id: "fan", handler: "parallel", join_policy: "first_success", max_parallel: 2 }), targets: ["Review it!", "review.it", ".."], fanIn: "j", context: {}, visit: 3 });
  assert.ok(!("error" in plan));
  assert.deepEqual(plan.branches.map((b) => b.branch), ["Review-it@3", "review-it@3", "branch@3"]);
  assert.deepEqual([plan.joinPolicy, plan.maxParallel], ["first_success", 2]);
  assert.equal(branchIdOf("x".repeat(100)).length, 40);
  const twice = planBranches({ node: fan, targets: ["a-b", "a b"], fanIn: "j", context: {}, visit: 1 });
  assert.deepEqual("error" in twice ? [] : twice.branches.map((b) => b.branch), ["a-b", "a-b-2"]);
});

test("a foreach has a branch per item of its list (a JSON array, or text holding one), all starting at its one target", () => {
  const each = node({ id: "each", handler: "foreach", over: "subtasks" });
  const plan = planBranches({ node: each, targets: ["build"], fanIn: "done", context: { subtasks: ["a", { name: "b" }] }, visit: 1 });
  assert.deepEqual("error" in plan ? plan : plan.branches, [
    { branch: "item-0", target: "build", item: "a", index: 0 },
    { branch: "item-1", target: "build", item: { name: "b" }, index: 1 },
  ]);
  const printed = planBranches({ node: each, targets: ["build"], fanIn: "done", context: { subtasks: '["x", "y", "z"]' }, visit: 1 });
  assert.deepEqual("error" in printed ? printed : printed.branches.map((b) => b.item), ["x", "y", "z"]);
  const many = planBranches({ node: each, targets: ["build"], fanIn: "done", context: { subtasks: Array.from({ length: 20 }, (_, i) => i) }, visit: 1 });
  assert.equal("error" in many ? 0 : many.maxParallel, DEFAULT_MAX_PARALLEL, "a long list is not started all at once");
  const none = planBranches({ node: each, targets: ["build"], fanIn: "done", context: { subtasks: [] }, visit: 1 });
  assert.deepEqual("error" in none ? none : [none.branches, none.maxParallel], [[], 1]);
});

test("a foreach list that is missing or not a list, a fan-out without a fan-in or without edges: an error naming the stage", () => {
  const each = node({ id: "each", handler: "foreach", over: "subtasks" });
  const errors = [
    planBranches({ node: each, targets: ["build"], fanIn: "done", context: {}, visit: 1 }),
    planBranches({ node: each, targets: ["build"], fanIn: "done", context: { subtasks: "not json" }, visit: 1 }),
    planBranches({ node: each, targets: ["build"], fanIn: "done", context: { subtasks: { a: 1 } }, visit: 1 }),
    planBranches({ node: fan, targets: ["a"], fanIn: undefined, context: {}, visit: 1 }),
    planBranches({ node: fan, targets: [], fanIn: "j", context: {}, visit: 1 }),
  ].map((plan) => ("error" in plan ? `${plan.error.code}: ${plan.error.message}` : "no error"));
  assert.match(errors[0]!, /^foreach_list_missing: foreach stage "each" runs over context\.subtasks, which no stage has set/);
  assert.match(errors[1]!, /^foreach_not_a_list: .*the text "not json", not a JSON array/);
  assert.match(errors[2]!, /^foreach_not_a_list: .*an object, not a JSON array/);
  assert.match(errors[3]!, /^no_fan_in: parallel stage "fan" reaches no fan-in stage/);
  assert.match(errors[4]!, /^no_branches: parallel stage "fan" has no outgoing edge/);
});
