import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope, StageScope } from "./constants.ts";
import { applyToOpenStarts, describeStart, openStartsOf, type OpenStarts } from "./open-starts.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A";

type Entry = [type: string, data: Record<string, unknown>, stage?: StageScope];

function logOf(entries: Entry[]): Envelope[] {
  return entries.map(([type, data, stage], index) => {
    const event: Envelope = { v: 1, run: RUN, seq: index + 1, at: `2026-11-29T10:00:${String(index).padStart(2, "0")}.000Z`, type, data };
    if (stage !== undefined) event.stage = stage;
    return event;
  });
}

const session = "ses_1";

test("a start without its end stays open, with what its end needs, in start order", () => {
  const open = openStartsOf(
    logOf([
      ["run.started", { attempt: 1 }],
      ["agent.started", { session, agent: "fake", protocol_version: 1 }],
      ["turn.started", { session, turn: 1, reason: "task" }],
      ["tool.started", { session, call: "c_1", tool: "run", kind: "execute" }],
      ["permission.requested", { session, call: "c_1", tool: "run", options: [] }],
    ]),
  );
  assert.deepEqual(open, [
    { type: "agent.started", seq: 2, at: "2026-11-29T10:00:01.000Z", data: { session }, turns: 1 },
    { type: "turn.started", seq: 3, at: "2026-11-29T10:00:02.000Z", data: { session, turn: 1 } },
    { type: "tool.started", seq: 4, at: "2026-11-29T10:00:03.000Z", data: { session, call: "c_1", tool: "run" } },
    { type: "permission.requested", seq: 5, at: "2026-11-29T10:00:04.000Z", data: { session, call: "c_1", tool: "run" } },
  ]);
  assert.deepEqual(open.map(describeStart), [
    'agent.started (session "ses_1")',
    'turn.started (session "ses_1", turn 1)',
    'tool.started (call "c_1")',
    'permission.requested (call "c_1")',
  ]);
});

test("each end closes its own start, paired by session, turn and call, in any order", () => {
  const open = openStartsOf(
    logOf([
      ["agent.started", { session, agent: "fake", protocol_version: 1 }],
      ["turn.started", { session, turn: 1, reason: "task" }],
      ["tool.started", { session, call: "c_1", tool: "read", kind: "read" }],
      ["tool.started", { session, call: "c_2", tool: "write", kind: "edit" }],
      ["tool.completed", { session, call: "c_1", tool: "read", status: "completed" }],
      ["turn.completed", { session, turn: 1, stop_reason: "end_turn" }],
      ["turn.started", { session, turn: 2, reason: "notice" }],
      ["turn.completed", { session: "ses_other", turn: 2, stop_reason: "end_turn" }],
    ]),
  );
  assert.deepEqual(
    open.map((start) => [start.type, start.data.call ?? start.data.turn ?? start.data.session]),
    [
      ["agent.started", session],
      ["tool.started", "c_2"],
      ["turn.started", 2],
    ],
  );
  assert.equal(open[0]?.turns, 2, "agent.finished counts every turn of its session");
});

test("a stage visit ends with stage.completed or stage.failed, paired in its fan-out branch; a parallel stage keeps its branches' outcomes", () => {
  const inBranch = (branch: string): StageScope => ({ id: "test", visit: 1, branch });
  const open = openStartsOf(
    logOf([
      ["stage.started", { stage: "plan", visit: 1, handler: "agent", attempt: 1, max_attempts: 1 }, { id: "plan", visit: 1 }],
      ["stage.completed", { stage: "plan", visit: 1, outcome: "succeeded" }, { id: "plan", visit: 1 }],
      ["stage.started", { stage: "fan", visit: 1, handler: "parallel", attempt: 1, max_attempts: 1 }, { id: "fan", visit: 1 }],
      ["parallel.started", { stage: "fan", branches: [], join_policy: "wait_all", max_parallel: 2 }, { id: "fan", visit: 1 }],
      ["branch.started", { stage: "fan", branch: "a", target: "test" }],
      ["branch.started", { stage: "fan", branch: "b", target: "test" }],
      ["stage.started", { stage: "test", visit: 1, handler: "command", attempt: 1, max_attempts: 1 }, inBranch("a")],
      ["stage.started", { stage: "test", visit: 1, handler: "command", attempt: 1, max_attempts: 1 }, inBranch("b")],
      ["stage.failed", { stage: "test", visit: 1, will_retry: false }, inBranch("a")],
      ["branch.completed", { stage: "fan", branch: "a", outcome: "failed" }],
    ]),
  );
  assert.deepEqual(open.map(describeStart), [
    'stage.started (stage "fan", visit 1)',
    'parallel.started (stage "fan")',
    'branch.started (stage "fan", branch "b")',
    'stage.started (stage "test", visit 1, branch "b")',
  ]);
  assert.deepEqual(open[1]?.results, [{ branch: "a", outcome: "failed" }]);
  assert.deepEqual(open[3]?.stage, inBranch("b"), "the end is written in the start's stage scope");
});

test("a log whose every start has its end has nothing open", () => {
  const open = openStartsOf(
    logOf([
      ["agent.started", { session, agent: "fake", protocol_version: 1 }],
      ["turn.started", { session, turn: 1, reason: "task" }],
      ["permission.requested", { session, call: "c_1", tool: "run", options: [] }],
      ["permission.resolved", { session, call: "c_1", decision: "allow_once", by: "policy", rule: "r" }],
      ["tool.started", { session, call: "c_1", tool: "run", kind: "execute" }],
      ["tool.completed", { session, call: "c_1", tool: "run", status: "failed" }],
      ["turn.completed", { session, turn: 1, stop_reason: "end_turn" }],
      ["agent.finished", { session, turns: 1 }],
    ]),
  );
  assert.deepEqual(open, []);
});

test("an end without a start, a repeated start or data of the wrong shape never throws", () => {
  const open: OpenStarts = new Map();
  const events = logOf([
    ["tool.completed", { call: "c_9" }],
    ["tool.started", { session, call: "c_1", tool: "run" }],
    ["tool.started", { session, call: "c_1", tool: "other" }],
    ["turn.started", null as unknown as Record<string, unknown>],
  ]);
  for (const event of events) applyToOpenStarts(open, event);
  assert.deepEqual(
    [...open.values()].map((start) => [start.type, start.seq, start.data.tool]),
    [
      ["tool.started", 2, "run"],
      ["turn.started", 4, undefined],
    ],
  );
});
