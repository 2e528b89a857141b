import assert from "node:assert/strict";
import { test } from "node:test";
import { foldRun, type Envelope, type StageScope } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import { resumePoint } from "./resume-point.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";

function fold(...specs: [type: string, data: Record<string, unknown>, stage?: StageScope][]) {
  const events: Envelope[] = specs.map(([type, data, stage], index) => ({ v: 1, run: RUN, seq: index + 1, at: "2026-11-29T10:00:00.000Z", type, data, ...(stage ? { stage } : {}) }));
  return foldRun(events);
}

const opening: [string, Record<string, unknown>][] = [
  ["run.created", { number: 2, task: "t", agent: "fake", workflow: "w", repo: { root: "/r", dirty: false } }],
  ["run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }],
  ["workflow.loaded", { name: "w", nodes: [], edges: [] }],
];
const plan = { id: "plan", visit: 1 };
const build = { id: "build", visit: 1 };
const planDone: [string, Record<string, unknown>, StageScope][] = [
  ["stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 1 }, plan],
  ["stage.completed", { stage: "plan", visit: 1, outcome: "succeeded", duration_ms: 1 }, plan],
  ["checkpoint.saved", { stage: "plan", visit: 1, context: { a: 1 }, next: "build", visits: { plan: 1 } }, plan],
];
const interrupted = { code: "interrupted", message: "the process writing this run stopped" };

test("after a kill, the walk goes on at the last checkpoint's next stage, and the visit recovery ended is the one in flight", () => {
  const state = fold(
    ...opening,
    ...planDone,
    ["stage.started", { stage: "build", handler: "command", visit: 1, attempt: 1, max_attempts: 1 }, build],
    ["stage.failed", { stage: "build", visit: 1, error: interrupted, class: "transient_infra", will_retry: false, duration_ms: 1 }, build],
    ["run.failed", { error: interrupted }],
  );
  assert.deepEqual(resumePoint(state, "start"), {
    start: { node: "build", context: { a: 1 }, visits: { plan: 1 }, previous: { outcome: "succeeded" } },
    inFlight: { stage: "build", visit: 1 },
  });
});

test("a run that failed right after a checkpoint has no visit in flight; one killed before its first has its start", () => {
  const failed = fold(...opening, ...planDone, ["run.failed", { error: { code: "no_route", message: "x" } }]);
  assert.deepEqual(resumePoint(failed, "start"), { start: { node: "build", context: { a: 1 }, visits: { plan: 1 }, previous: { outcome: "succeeded" } }, inFlight: undefined });
  const early = fold(...opening, ["run.failed", { error: interrupted }]);
  assert.deepEqual(resumePoint(early, "start").start.node, "start");
});

test("a gate that waits keeps its open visit; a finished or running run cannot be resumed", () => {
  const gate = { id: "approve", visit: 1 };
  const paused = fold(
    ...opening,
    ...planDone,
    ["stage.started", { stage: "approve", handler: "human", visit: 1, attempt: 1, max_attempts: 1 }, gate],
    ["approval.requested", { gate: "approve", question: "Ship?", options: [], freeform: false }, gate],
    ["run.paused", { reason: "gate", gate: "approve" }],
  );
  assert.deepEqual(resumePoint(paused, "start"), { start: { node: "approve", context: {}, visits: { plan: 1 }, previous: { outcome: "succeeded" }, openVisit: 1 } });
  const refused = (state: ReturnType<typeof fold>) => assert.throws(() => resumePoint(state, "start"), (error: unknown) => error instanceof BatonError && error.code === "not_resumable");
  refused(fold(...opening, ...planDone, ["run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 }]));
  refused(fold(...opening, ...planDone));
});

test("given an earlier checkpoint (the newest a lost worker pushed), the walk goes on after it: the visits after it run again", () => {
  const buildDone: [string, Record<string, unknown>, StageScope][] = [
    ["stage.started", { stage: "build", handler: "command", visit: 1, attempt: 1, max_attempts: 1 }, build],
    ["stage.completed", { stage: "build", visit: 1, outcome: "succeeded", duration_ms: 1 }, build],
    ["checkpoint.saved", { stage: "build", visit: 1, context: { a: 1, b: 2 }, next: "ship", visits: { plan: 1, build: 1 } }, build],
  ];
  const lost = { code: "worker_lost", message: "the worker running this run was lost" };
  const state = fold(...opening, ...planDone, ...buildDone, ["run.failed", { error: lost }]);
  // plan's checkpoint is seq 6, build's seq 9.
  assert.deepEqual(resumePoint(state, "start", 6), {
    start: { node: "build", context: { a: 1 }, visits: { plan: 1 }, previous: { outcome: "succeeded" } },
    inFlight: { stage: "build", visit: 1 },
  });
  assert.deepEqual(resumePoint(state, "start", 9).start.node, "ship");
  assert.deepEqual(resumePoint(state, "start").start.node, "ship", "without one, the last checkpoint");
  assert.throws(() => resumePoint(state, "start", 7), (error) => error instanceof BatonError && error.code === "not_resumable" && /no checkpoint at seq 7/.test(error.message));
});
