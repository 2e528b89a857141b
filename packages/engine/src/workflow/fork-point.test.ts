import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope, StageScope } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import { forkPoint, forkStartEvents } from "./fork-point.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";

function log(...specs: [type: string, data: Record<string, unknown>, stage?: StageScope][]): Envelope[] {
  return specs.map(([type, data, stage], index) => ({ v: 1, run: RUN, seq: index + 1, at: "2026-11-29T10:00:00.000Z", type, data, ...(stage ? { stage } : {}) }));
}

const visit = (stage: string, n: number, outcome: "succeeded" | "failed", next: string | undefined, commit: string | undefined, visits: Record<string, number>, context: Record<string, unknown> = {}) => {
  const scope = { id: stage, visit: n };
  return [
    ["stage.started", { stage, handler: "agent", visit: n, attempt: 1, max_attempts: 1 }, scope],
    outcome === "failed"
      ? ["stage.failed", { stage, visit: n, error: { code: "x", message: "y" }, class: "deterministic", will_retry: false, duration_ms: 1 }, scope]
      : ["stage.completed", { stage, visit: n, outcome, duration_ms: 1 }, scope],
    ...(commit === undefined ? [] : [["git.committed", { sha: commit, branch: "baton/1-t", message: `${stage}: t`, files: [] }, scope]]),
    ["checkpoint.saved", { stage, visit: n, commit, context, next, visits }, scope],
  ] as [string, Record<string, unknown>, StageScope][];
};

/** start → plan → check (fails) → plan again → check → exit, with a commit on plan@1 and a salvage before plan@2. */
const LOOP = log(
  ["run.created", { number: 3, task: "t", agent: "fake", workflow: "loop", repo: { root: "/r", dirty: false } }],
  ["run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }],
  ["workflow.loaded", { name: "loop", nodes: [], edges: [] }],
  ["workspace.ready", { kind: "worktree", path: "/r/.baton/worktrees/3-t", branch: "baton/3-t", base_sha: "base000" }],
  ...visit("start", 1, "succeeded", "plan", undefined, { start: 1 }),
  ...visit("plan", 1, "succeeded", "check", "c1", { start: 1, plan: 1 }, { plan_file: "PLAN.md" }),
  ...visit("check", 1, "failed", "plan", undefined, { start: 1, plan: 1, check: 1 }, { plan_file: "PLAN.md", "command.exit_code": 1 }),
  ["git.committed", { sha: "s1", branch: "baton/3-t", message: "salvage of plan: t", files: [] }, { id: "plan", visit: 2 }],
  ...visit("plan", 2, "succeeded", "check", undefined, { start: 1, plan: 2, check: 1 }),
  ...visit("check", 2, "succeeded", "exit", "c2", { start: 1, plan: 2, check: 2 }),
  ...visit("exit", 1, "succeeded", undefined, undefined, { start: 1, plan: 2, check: 2, exit: 1 }),
);

test("a fork starts after the checkpoint: its next stage, its context and visits, the outcome it routes on, and its commit", () => {
  const point = forkPoint(LOOP, { stage: "check", visit: 1 });
  assert.deepEqual(point.origin, { run: RUN, number: 3, stage: "check", visit: 1, commit: "c1" });
  assert.equal(point.commit, "c1", "check@1 committed nothing: the branch was at plan@1's commit");
  assert.deepEqual(point.start, { node: "plan", context: { plan_file: "PLAN.md", "command.exit_code": 1 }, visits: { start: 1, plan: 1, check: 1 }, previous: { outcome: "failed" } });
  assert.deepEqual(forkStartEvents(point), [
    ["context.updated", { updates: { plan_file: "PLAN.md", "command.exit_code": 1 } }],
    ["checkpoint.saved", { stage: "check", visit: 1, commit: "c1", context: { plan_file: "PLAN.md", "command.exit_code": 1 }, next: "plan", visits: { start: 1, plan: 1, check: 1 } }],
  ]);
});

test("without a visit, the stage's last checkpoint; a salvage commit counts as the branch's head; before any commit, the run's base", () => {
  const last = forkPoint(LOOP, { stage: "plan" });
  assert.deepEqual([last.origin.visit, last.commit, last.start.node], [2, "s1", "check"]);
  assert.equal(forkPoint(LOOP, { stage: "check" }).commit, "c2");
  const first = forkPoint(LOOP, { stage: "start" });
  assert.deepEqual([first.commit, first.start.node, first.start.context], ["base000", "plan", {}]);
  assert.deepEqual(forkStartEvents(first).map(([type]) => type), ["checkpoint.saved"], "no context to carry");
});

test("a fork is refused at a stage or visit with no checkpoint, at the exit, for a run that is no workflow run or worked in place", () => {
  const refused = (events: Envelope[], at: { stage: string; visit?: number }, code: string, message: RegExp) =>
    assert.throws(() => forkPoint(events, at), (error: unknown) => error instanceof BatonError && error.code === code && message.test(error.toLine()));
  refused(LOOP, { stage: "deploy" }, "no_checkpoint", /^run 3 has no checkpoint of stage "deploy": fork at one of start@1, plan@1, check@1, plan@2, check@2, exit@1$/);
  refused(LOOP, { stage: "plan", visit: 3 }, "no_checkpoint", /^run 3 has no checkpoint of visit 3 of stage "plan"/);
  refused(LOOP, { stage: "exit" }, "no_checkpoint", /checkpoint exit@1 is its exit: nothing runs after it/);
  refused(LOOP.slice(0, 2), { stage: "plan" }, "not_forkable", /^run 3 is not a workflow run/);
  const inPlace = LOOP.map((event) => (event.type === "workspace.ready" ? { ...event, data: { kind: "in_place", path: "/r" } } : event));
  refused(inPlace, { stage: "start" }, "not_forkable", /worked in place/);
});
