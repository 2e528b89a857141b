import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope, StageScope } from "./constants.ts";
import { foldRun } from "./fold.ts";
import { openStages } from "./stage-fold.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";

function events(...specs: [type: string, data: Record<string, unknown>, stage?: StageScope][]): Envelope[] {
  return specs.map(([type, data, stage], index) => ({ v: 1, run: RUN, seq: index + 1, at: `2026-11-29T10:00:0${index % 10}.000Z`, type, data, ...(stage ? { stage } : {}) }));
}

test("stage visits are folded with their outcome, duration, usage and the commit made inside them", () => {
  const state = foldRun(
    events(
      ["stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 1, label: "Plan" }, { id: "plan", visit: 1 }],
      ["git.committed", { sha: "abc", branch: "b", message: "m", files: [] }, { id: "plan", visit: 1 }],
      ["stage.completed", { stage: "plan", visit: 1, outcome: "succeeded", duration_ms: 40, usage: { input_tokens: 3, output_tokens: 4 } }, { id: "plan", visit: 1 }],
      ["stage.started", { stage: "check", handler: "command", visit: 1, attempt: 1, max_attempts: 2 }, { id: "check", visit: 1 }],
      ["stage.failed", { stage: "check", visit: 1, error: { code: "command_failed", message: "exit 1" }, class: "deterministic", will_retry: true, duration_ms: 5 }, { id: "check", visit: 1 }],
    ),
  );
  assert.deepEqual(
    state.workflow.stages.map((s) => [s.stage, s.visit, s.attempt, s.status, s.duration_ms, s.commit, s.will_retry]),
    [
      ["plan", 1, 1, "succeeded", 40, "abc", undefined],
      ["check", 1, 1, "failed", 5, undefined, true],
    ],
  );
  assert.deepEqual(state.workflow.stages[0]?.usage, { input_tokens: 3, output_tokens: 4 });
  assert.equal(state.workflow.stages[1]?.error?.code, "command_failed");
  assert.deepEqual(openStages(state.workflow), []);
  assert.deepEqual(state.warnings, []);
});

test("a visit's checkpoint commit, made after its stage.completed, is the commit of its last attempt", () => {
  const plan = { id: "plan", visit: 1 };
  const state = foldRun(
    events(
      ["stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 2 }, plan],
      ["stage.failed", { stage: "plan", visit: 1, error: { code: "x", message: "y" }, class: "transient_infra", will_retry: true, duration_ms: 5 }, plan],
      ["stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 2, max_attempts: 2 }, plan],
      ["stage.completed", { stage: "plan", visit: 1, outcome: "succeeded", duration_ms: 40 }, plan],
      ["git.committed", { sha: "c1", branch: "b", message: "plan: t", files: ["a"] }, plan],
      ["git.committed", { sha: "c0", branch: "b", message: "other", files: ["b"] }],
    ),
  );
  assert.deepEqual(
    state.workflow.stages.map((s) => [s.attempt, s.commit]),
    [
      [1, undefined],
      [2, "c1"],
    ],
  );
  assert.deepEqual(state.warnings, []);
});

test("parallel branches running the same stage are kept apart by their branch", () => {
  const state = foldRun(
    events(
      ["stage.started", { stage: "review", handler: "agent", visit: 1, attempt: 1, max_attempts: 1 }, { id: "review", visit: 1, branch: "b1" }],
      ["stage.started", { stage: "review", handler: "agent", visit: 1, attempt: 1, max_attempts: 1 }, { id: "review", visit: 1, branch: "b2" }],
      ["stage.completed", { stage: "review", visit: 1, outcome: "succeeded", duration_ms: 1 }, { id: "review", visit: 1, branch: "b2" }],
    ),
  );
  assert.deepEqual(openStages(state.workflow).map((s) => s.branch), ["b1"]);
  assert.deepEqual(state.warnings, []);
});

test("a stage closed twice, or started twice, is a warning and never a throw", () => {
  const state = foldRun(
    events(
      ["stage.started", { stage: "a", handler: "agent", visit: 1, attempt: 1, max_attempts: 1 }],
      ["stage.started", { stage: "a", handler: "agent", visit: 1, attempt: 1, max_attempts: 1 }],
      ["stage.completed", { stage: "a", visit: 1, outcome: "succeeded", duration_ms: 1 }],
      ["stage.completed", { stage: "a", visit: 1, outcome: "succeeded", duration_ms: 1 }],
      ["stage.completed", { stage: "a", visit: 1, outcome: "succeeded", duration_ms: 1 }],
    ),
  );
  assert.equal(state.warnings.length, 2);
  assert.match(state.warnings[0]!, /started twice/);
  assert.match(state.warnings[1]!, /not running/);
});

test("context updates set and remove keys; checkpoints keep their context, next stage and visits; a gate is pending until resolved", () => {
  const state = foldRun(
    events(
      ["context.updated", { updates: { a: 1, b: "x" } }],
      ["context.updated", { updates: JSON.parse('{"a": null, "__proto__": 2}') as Record<string, unknown> }],
      ["checkpoint.saved", { stage: "plan", visit: 1, commit: "c1", context: { b: "x" }, next: "approve", visits: { start: 1, plan: 1 } }],
      ["approval.requested", { gate: "approve", question: "Ship?", options: [{ label: "Approve", to: "exit" }], freeform: false }],
    ),
  );
  assert.deepEqual(Object.keys(state.workflow.context).sort(), ["__proto__", "b"]);
  assert.equal(Object.getPrototypeOf(state.workflow.context), Object.prototype);
  assert.deepEqual(state.workflow.checkpoints, [{ stage: "plan", visit: 1, seq: 3, commit: "c1", next: "approve", context: { b: "x" }, visits: { start: 1, plan: 1 } }]);
  assert.equal(state.workflow.gate?.gate, "approve");
  const answered = foldRun([...events(["approval.requested", { gate: "approve", question: "Ship?", options: [], freeform: true }]), { v: 1, run: RUN, seq: 2, at: "2026-11-29T10:00:09.000Z", type: "approval.resolved", data: { gate: "approve", approved: true, by: "ada", via: "cli" } }]);
  assert.equal(answered.workflow.gate, undefined);
  assert.deepEqual(answered.warnings, []);
});

test("a fan-out's branches are folded in branch order; a visit started again keeps the branches that ended and reopens the rest", () => {
  const fan = { id: "fan", visit: 1 };
  const branches = [{ branch: "a", target: "a" }, { branch: "b", target: "b" }];
  const started = ["parallel.started", { stage: "fan", branches, join_policy: "wait_all", max_parallel: 2, base_sha: "base", fan_in: "gather" }, fan] as const;
  const state = foldRun(
    events(
      [...started],
      ["branch.started", { stage: "fan", branch: "a", target: "a", git_branch: "baton/1-x--a" }, { ...fan, branch: "a" }],
      ["branch.started", { stage: "fan", branch: "b", target: "b" }, { ...fan, branch: "b" }],
      ["branch.completed", { stage: "fan", branch: "a", outcome: "succeeded", head_sha: "h1" }, { ...fan, branch: "a" }],
      // The process died here; the visit runs again.
      ["parallel.started", { stage: "fan", branches, join_policy: "wait_all", max_parallel: 2, base_sha: "base", fan_in: "gather", reused: ["a"] }, fan],
    ),
  );
  assert.deepEqual(
    state.workflow.fan_outs.map((f) => [f.stage, f.visit, f.fan_in, f.outcome, f.branches.map((b) => [b.branch, b.status, b.head_sha, b.git_branch])]),
    [["fan", 1, "gather", undefined, [["a", "succeeded", "h1", "baton/1-x--a"], ["b", "pending", undefined, undefined]]]],
  );
  const done = foldRun(
    events(
      [...started],
      ["branch.completed", { stage: "fan", branch: "b", outcome: "cancelled", error: { code: "cancelled", message: "another branch succeeded first" } }, { ...fan, branch: "b" }],
      ["parallel.completed", { stage: "fan", outcome: "failed", results: [] }, fan],
    ),
  );
  assert.equal(done.workflow.fan_outs[0]?.outcome, "failed");
  assert.deepEqual(done.workflow.fan_outs[0]?.branches[1]?.error, { code: "cancelled", message: "another branch succeeded first" });
  assert.deepEqual(done.warnings, []);
});

test("a branch's context updates, checkpoints and commits stay in the branch: the run's context, checkpoints and commit are its own", () => {
  const inBranch = { id: "build", visit: 1, branch: "item-0" };
  const state = foldRun(
    events(
      ["git.committed", { sha: "run1", branch: "baton/1-x", message: "m", files: [] }, { id: "plan", visit: 1 }],
      ["context.updated", { updates: { plan: "p" } }],
      ["context.updated", { updates: { item: "x" } }, inBranch],
      ["checkpoint.saved", { stage: "build", visit: 1, context: {}, visits: {} }, inBranch],
      ["git.committed", { sha: "b1", branch: "baton/1-x--item-0", message: "m", files: [] }, inBranch],
      ["branch.completed", { stage: "nowhere", branch: "x", outcome: "succeeded" }, { id: "nowhere", visit: 1, branch: "x" }],
    ),
  );
  assert.deepEqual(state.workflow.context, { plan: "p" });
  assert.deepEqual(state.workflow.checkpoints, []);
  assert.equal(state.commit?.sha, "run1");
  assert.equal(state.warnings.length, 1, "a branch event without its fan-out is a warning");
});
