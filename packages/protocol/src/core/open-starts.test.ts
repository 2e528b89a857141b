import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "./constants.ts";
import { applyToOpenStarts, openStartsOf, type OpenStarts } from "./open-starts.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A";

function logOf(entries: Array<[type: string, data: Record<string, unknown>]>): Envelope[] {
  return entries.map(([type, data], index) => ({ v: 1, run: RUN, seq: index + 1, at: `2026-11-29T10:00:0${index}.000Z`, type, data }));
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
    { type: "agent.started", seq: 2, at: "2026-11-29T10:00:01.000Z", session, turns: 1 },
    { type: "turn.started", seq: 3, at: "2026-11-29T10:00:02.000Z", session, turn: 1 },
    { type: "tool.started", seq: 4, at: "2026-11-29T10:00:03.000Z", session, call: "c_1", tool: "run" },
    { type: "permission.requested", seq: 5, at: "2026-11-29T10:00:04.000Z", session, call: "c_1", tool: "run" },
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
    open.map((start) => [start.type, start.call ?? start.turn ?? start.session]),
    [
      ["agent.started", session],
      ["tool.started", "c_2"],
      ["turn.started", 2],
    ],
  );
  assert.equal(open[0]?.turns, 2, "agent.finished counts every turn of its session");
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
  const [completed, started, again, broken] = logOf([
    ["tool.completed", { call: "c_9" }],
    ["tool.started", { session, call: "c_1", tool: "run" }],
    ["tool.started", { session, call: "c_1", tool: "other" }],
    ["turn.started", null as unknown as Record<string, unknown>],
  ]);
  for (const event of [completed, started, again, broken]) applyToOpenStarts(open, event as Envelope);
  assert.deepEqual(
    [...open.values()].map((start) => [start.type, start.seq, start.tool]),
    [
      ["tool.started", 2, "run"],
      ["turn.started", 4, undefined],
    ],
  );
});
