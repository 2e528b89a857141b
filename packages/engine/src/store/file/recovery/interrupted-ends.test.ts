import assert from "node:assert/strict";
import { test } from "node:test";
import { openStartsOf, type Envelope, type StageScope } from "@baton/protocol/core";
import { interruptedEnds, INTERRUPTED_CODE } from "./interrupted-ends.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A";
const session = "ses_1";
const at = (second: number) => `2026-11-29T10:00:${String(second).padStart(2, "0")}.000Z`;

function logOf(entries: Array<[type: string, data: Record<string, unknown>, stage?: StageScope]>): Envelope[] {
  return entries.map(([type, data, stage], index) => {
    const event: Envelope = { v: 1, run: RUN, seq: index + 1, at: at(index), type, data };
    if (stage !== undefined) event.stage = stage;
    return event;
  });
}

const why = "the process writing this run stopped before the run ended (pid 42)";
const error = { code: INTERRUPTED_CODE, message: why };

test("every open start gets its end, the last started first, each saying why, then run.failed interrupted", () => {
  const open = openStartsOf(
    logOf([
      ["agent.started", { session, agent: "fake", protocol_version: 1 }],
      ["turn.started", { session, turn: 1, reason: "task" }],
      ["turn.completed", { session, turn: 1, stop_reason: "end_turn", duration_ms: 1 }],
      ["turn.started", { session, turn: 2, reason: "notice" }],
      ["tool.started", { session, call: "c_1", tool: "run", kind: "execute" }],
      ["permission.requested", { session, call: "c_1", tool: "run", options: [] }],
    ]),
  );
  const sessions = { [session]: { usage: { input_tokens: 7, output_tokens: 3, cache_read_tokens: 0, cache_write_tokens: 0 } } };
  const ends = interruptedEnds(open, sessions, why, Date.parse(at(10)));
  assert.deepEqual(ends, [
    { type: "permission.resolved", data: { session, call: "c_1", decision: "cancelled", by: "policy", rule: INTERRUPTED_CODE } },
    {
      type: "tool.completed",
      data: { session, call: "c_1", tool: "run", status: "cancelled", is_error: true, duration_ms: 6000, output_chars: 0, error },
    },
    { type: "turn.completed", data: { session, turn: 2, stop_reason: "cancelled", duration_ms: 7000, error } },
    { type: "agent.finished", data: { session, turns: 2, usage: sessions[session].usage } },
    { type: "run.failed", data: { error } },
  ]);
});

test("a workflow's open stage visits, fan-out branches and parallel stage end in nesting order, each in its own stage scope", () => {
  const fan: StageScope = { id: "fan", visit: 1 };
  const inB: StageScope = { id: "test", visit: 1, branch: "b" };
  const open = openStartsOf(
    logOf([
      ["stage.started", { stage: "fan", visit: 1, handler: "parallel", attempt: 1, max_attempts: 1 }, fan],
      ["parallel.started", { stage: "fan", branches: [], join_policy: "wait_all", max_parallel: 2 }, fan],
      ["branch.started", { stage: "fan", branch: "a", target: "test" }, fan],
      ["branch.started", { stage: "fan", branch: "b", target: "test" }, fan],
      ["branch.completed", { stage: "fan", branch: "a", outcome: "succeeded" }, fan],
      ["stage.started", { stage: "test", visit: 1, handler: "command", attempt: 1, max_attempts: 1 }, inB],
    ]),
  );
  const ends = interruptedEnds(open, {}, why, Date.parse(at(10)));
  assert.deepEqual(ends, [
    { type: "stage.failed", stage: inB, data: { stage: "test", visit: 1, error, class: "transient_infra", will_retry: false, duration_ms: 5000 } },
    { type: "branch.completed", stage: fan, data: { stage: "fan", branch: "b", outcome: "cancelled", error } },
    {
      type: "parallel.completed",
      stage: fan,
      data: {
        stage: "fan",
        outcome: "failed",
        results: [
          { branch: "a", outcome: "succeeded" },
          { branch: "b", outcome: "cancelled" },
        ],
      },
    },
    { type: "stage.failed", stage: fan, data: { stage: "fan", visit: 1, error, class: "transient_infra", will_retry: false, duration_ms: 10000 } },
    { type: "run.failed", data: { error } },
  ]);
});

test("a log with nothing open ends with run.failed alone", () => {
  assert.deepEqual(interruptedEnds([], {}, why, 0), [{ type: "run.failed", data: { error } }]);
});

test("a session that reported no usage finishes with zero usage, and a clock behind a start gives no negative duration", () => {
  const open = openStartsOf(
    logOf([
      ["agent.started", { session, agent: "fake", protocol_version: 1 }],
      ["turn.started", { session, turn: 1, reason: "task" }],
    ]),
  );
  const [turn, agent] = interruptedEnds(open, {}, why, Date.parse(at(0)));
  assert.equal(turn?.data["duration_ms"], 0);
  assert.deepEqual(agent?.data, { session, turns: 1, usage: { input_tokens: 0, output_tokens: 0 } });
});

test("a person's input the run took and never delivered is rejected not_running; one delivered or rejected is left alone", () => {
  const open = openStartsOf(
    logOf([
      ["input.queued", { id: "in_1", by: "ann", text: "one", chars: 3 }],
      ["input.queued", { id: "in_2", by: "ann", text: "two", chars: 3 }],
      ["input.queued", { id: "in_3", by: "bob", text: "three", chars: 5 }],
      ["input.delivered", { id: "in_1", how: "next_turn" }],
      ["input.rejected", { id: "in_3", code: "too_many" }],
    ]),
  );
  assert.deepEqual(interruptedEnds(open, {}, why, Date.parse(at(10))), [
    { type: "input.rejected", data: { id: "in_2", code: "not_running", message: `the run ended before it was delivered: ${why}` } },
    { type: "run.failed", data: { error } },
  ]);
});

test("a setup cut by the writer's death ends setup.failed interrupted, the run's and a branch's apart; one that ended is left alone", () => {
  const fan: StageScope = { id: "fan", visit: 1, branch: "a" };
  const open = openStartsOf(
    logOf([
      ["setup.started", { path: "/wt", commands: ["npm ci"] }],
      ["setup.completed", { commands: 1, duration_ms: 5 }],
      ["setup.started", { path: "/wt--a", commands: ["npm ci"], branch: "a" }, fan],
      ["setup.started", { path: "/wt--b", commands: ["npm ci"], branch: "b" }, { id: "fan", visit: 1, branch: "b" }],
      ["setup.failed", { command: "npm ci", exit_code: 1, error: { code: "setup_failed", message: "x" }, output_tail: "", branch: "b" }, { id: "fan", visit: 1, branch: "b" }],
    ]),
  );
  assert.deepEqual(interruptedEnds(open, {}, why, Date.parse(at(10))), [
    { type: "setup.failed", data: { command: "", exit_code: null, error, output_tail: "", branch: "a" }, stage: fan },
    { type: "run.failed", data: { error } },
  ]);
  const runOwn = openStartsOf(logOf([["setup.started", { path: "/wt", commands: ["npm ci"] }]]));
  assert.deepEqual(interruptedEnds(runOwn, {}, why, Date.parse(at(10)))[0], { type: "setup.failed", data: { command: "", exit_code: null, error, output_tail: "" } });
});

test("a question the agent asked and nobody answered is cancelled (rule interrupted); one answered is left alone", () => {
  const open = openStartsOf(
    logOf([
      ["question.asked", { session: "s1", id: "q_1", mode: "form", message: "Which?", fields: [], awaiting: "person" }],
      ["question.asked", { session: "s1", id: "q_2", call: "toolu_2", mode: "form", message: "And?", fields: [], awaiting: "person" }],
      ["question.answered", { session: "s1", id: "q_1", action: "decline", by: "policy", rule: "question:timeout" }],
    ]),
  );
  assert.deepEqual(interruptedEnds(open, {}, why, Date.parse(at(10))), [
    { type: "question.answered", data: { session: "s1", id: "q_2", call: "toolu_2", action: "cancel", by: "policy", rule: "interrupted", reason: why } },
    { type: "run.failed", data: { error } },
  ]);
});
