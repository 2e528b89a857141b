import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "../envelope.ts";
import { applyEvent, foldEvent, foldRun, initialRunState, type RunState } from "./fold.ts";
import { SAMPLE_DATA, SAMPLE_RUN_ID, sampleEvents } from "../testing/sample-events.ts";

/** A log builder: each durable event gets the next seq, one second after the previous. */
function logOf(entries: Array<[type: string, data?: Record<string, unknown>]>): Envelope[] {
  let seq = 0;
  return entries.map(([type, data = {}]) => {
    seq += 1;
    return { v: 1, run: SAMPLE_RUN_ID, seq, at: new Date(Date.UTC(2026, 10, 29, 10, 0, seq)).toISOString(), type, data };
  });
}

/** One event with a chosen seq (none: ephemeral) and data of any shape, for broken logs. */
function mk(seq: number | undefined, type: string, data: unknown, run = SAMPLE_RUN_ID): Envelope {
  const event = { v: 1, run, at: "2026-11-29T10:00:00.000Z", type, data } as Envelope;
  if (seq !== undefined) event.seq = seq;
  return event;
}

const created = ["run.created", SAMPLE_DATA["run.created"]] as const;
const started = ["run.started", SAMPLE_DATA["run.started"]] as const;
const usage = { input_tokens: 10, output_tokens: 5 };

test("a new run state is created, empty and without warnings", () => {
  const state = foldRun([]);
  assert.deepEqual(state, initialRunState());
  assert.equal(state.status, "created");
});

test("run.created sets task, agent, model and number; run.started makes the run running", () => {
  const state = foldRun(logOf([[...created], [...started]]));
  assert.equal(state.status, "running");
  assert.equal(state.run, SAMPLE_RUN_ID);
  assert.equal(state.number, 7);
  assert.equal(state.task, "Fix the flaky date test");
  assert.equal(state.agent, "fake");
  assert.equal(state.model, "twin-1");
  assert.equal(state.created_at, "2026-11-29T10:00:01.000Z");
  assert.equal(state.started_at, "2026-11-29T10:00:02.000Z");
  assert.equal(state.last_seq, 2);
  assert.deepEqual(state.warnings, []);
});

test("status through each terminal type", () => {
  const end = (type: string, data: Record<string, unknown>) => foldRun(logOf([[...created], [...started], [type, data]]));

  const paused = end("run.paused", { reason: "approval", gate: "review" });
  assert.equal(paused.status, "paused");
  assert.equal(paused.ended_at, "2026-11-29T10:00:03.000Z");

  const succeeded = end("run.completed", { status: "succeeded", usage, active_ms: 900, duration_ms: 1500 });
  assert.equal(succeeded.status, "succeeded");
  assert.equal(succeeded.duration_ms, 1500, "duration from the event, not from the clock");

  const stopped = end("run.completed", { status: "stopped", stopped_by: "cost", usage, active_ms: 1, duration_ms: 2 });
  assert.equal(stopped.status, "stopped");
  assert.equal(stopped.stopped_by, "cost");

  const failed = end("run.failed", { error: { code: "interrupted", message: "writer died" } });
  assert.equal(failed.status, "failed");
  assert.deepEqual(failed.error, { code: "interrupted", message: "writer died" });
  assert.equal(failed.duration_ms, 1000, "duration from started_at to the end");

  const cancelled = end("run.cancelled", { by: "human", reason: "wrong task" });
  assert.equal(cancelled.status, "cancelled");
  assert.equal(cancelled.cancelled_by, "human");

  for (const state of [paused, succeeded, stopped, failed, cancelled]) assert.deepEqual(state.warnings, []);
});

test("a paused run resumed by a new run.started is running again, and its end is the final one", () => {
  const log = logOf([
    [...created],
    [...started],
    ["run.paused", { reason: "approval" }],
    ["run.started", { attempt: 2, resumed: true, pid: 5, host: "h" }],
  ]);
  const resumed = foldRun(log);
  assert.equal(resumed.status, "running");
  assert.equal(resumed.ended_at, undefined);
  assert.equal(resumed.duration_ms, undefined);
  assert.equal(resumed.started_at, "2026-11-29T10:00:02.000Z", "started_at is the first start");

  const failed = foldRun([...log, { ...mk(5, "run.failed", { error: { code: "x", message: "" } }), at: "2026-11-29T10:00:05.000Z" }]);
  assert.equal(failed.status, "failed");
  assert.equal(failed.ended_at, "2026-11-29T10:00:05.000Z");
  assert.equal(failed.duration_ms, 3000);
});

test("usage: delta reports add up, total reports replace, per session; the run sums its sessions", () => {
  const state = foldRun(
    logOf([
      ["usage.updated", { session: "a", basis: "delta", input_tokens: 10, output_tokens: 1, cost_usd: 0.5 }],
      ["usage.updated", { session: "a", basis: "delta", input_tokens: 5, cache_read_tokens: 3, cost_usd: 0.25 }],
      ["usage.updated", { session: "b", basis: "total", input_tokens: 100, output_tokens: 20, cost_usd: 1 }],
      ["usage.updated", { session: "b", basis: "total", input_tokens: 120, output_tokens: 30, cost_usd: 1.5 }],
      ["usage.updated", { session: "b", basis: "total", context_used: 9000, context_size: 200000 }],
    ]),
  );
  assert.deepEqual(state.sessions["a"], { usage: { input_tokens: 15, output_tokens: 1, cache_read_tokens: 3, cache_write_tokens: 0 }, cost_usd: 0.75 });
  assert.deepEqual(state.sessions["b"], { usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 0, cache_write_tokens: 0 }, cost_usd: 1.5 });
  assert.deepEqual(state.usage, { input_tokens: 135, output_tokens: 31, cache_read_tokens: 3, cache_write_tokens: 0 });
  assert.equal(state.cost_usd, 2.25);
  assert.deepEqual(state.warnings, []);
});

test("context occupancy is not spend, and usage on other events is not counted twice", () => {
  const state = foldRun(
    logOf([
      ["usage.updated", { session: "a", basis: "delta", input_tokens: 10, output_tokens: 2, context_used: 5000 }],
      ["turn.completed", { session: "a", turn: 1, stop_reason: "end_turn", duration_ms: 1, usage: { input_tokens: 10, output_tokens: 2 } }],
      ["agent.finished", { session: "a", turns: 1, usage: { input_tokens: 10, output_tokens: 2 } }],
    ]),
  );
  assert.deepEqual(state.usage, { input_tokens: 10, output_tokens: 2, cache_read_tokens: 0, cache_write_tokens: 0 });
  assert.equal(state.cost_usd, undefined, "no cost reported, no cost invented");
});

test("counts: durable events, turns, messages, tool calls and failures, permissions, unknown types", () => {
  const log = logOf([
    [...created],
    [...started],
    ["turn.started", { session: "s", turn: 1, reason: "task" }],
    ["agent.message", { session: "s", turn: 1, text: "hi" }],
    ["agent.thought", { session: "s", turn: 1, text: "hm" }],
    ["tool.started", { session: "s", call: "c_1", tool: "read", kind: "read" }],
    ["permission.requested", { session: "s", call: "c_2", tool: "write", options: [] }],
    ["tool.started", { session: "s", call: "c_2", tool: "write", kind: "edit" }],
    ["tool.completed", { session: "s", call: "c_1", tool: "read", status: "completed", is_error: true, duration_ms: 1, output_chars: 0 }],
    ["tool.completed", { session: "s", call: "c_2", tool: "write", status: "failed", is_error: false, duration_ms: 1, output_chars: 0 }],
    ["review.posted", { stage: "plan" }],
    ["turn.completed", { session: "s", turn: 1, stop_reason: "end_turn", duration_ms: 5 }],
    ["turn.started", { session: "s", turn: 2, reason: "steer" }],
    ["agent.message", { session: "s", turn: 2, text: "ok" }],
  ]);
  const delta: Envelope = { v: 1, run: SAMPLE_RUN_ID, at: "2026-11-29T10:00:09.500Z", type: "agent.delta", data: { session: "s", kind: "text", text: "o" } };
  const state = foldRun([...log.slice(0, 13), delta, ...log.slice(13)]);
  assert.deepEqual(state.counts, { events: 14, turns: 2, messages: 2, tool_calls: 2, tool_failures: 2, permissions: 1, unknown: 1 });
  assert.equal(state.last_seq, 14, "an ephemeral event moves no cursor");
  assert.deepEqual(state.warnings, []);
});

test("tool calls pair by call id, also when they finish out of order", () => {
  const opened = foldRun(
    logOf([
      ["tool.started", { session: "s", call: "c_1", tool: "read", kind: "read" }],
      ["tool.started", { session: "s", call: "c_2", tool: "read", kind: "read" }],
      ["tool.started", { session: "s", call: "c_3", tool: "read", kind: "read" }],
      ["tool.completed", { session: "s", call: "c_2", tool: "read", status: "completed", is_error: false, duration_ms: 1, output_chars: 1 }],
    ]),
  );
  assert.deepEqual(opened.open_tool_calls, ["c_1", "c_3"]);
  const done = (seq: number, call: string) =>
    mk(seq, "tool.completed", { session: "s", call, tool: "read", status: "completed", is_error: false, duration_ms: 1, output_chars: 0 });
  const closed = foldEvent(foldEvent(opened, done(5, "c_3")), done(6, "c_1"));
  assert.deepEqual(closed.open_tool_calls, []);
  assert.deepEqual(closed.warnings, []);
});

test("totality: an event after the end warns and does not change the run's outcome", () => {
  const state = foldRun(
    logOf([
      [...created],
      [...started],
      ["run.completed", { status: "succeeded", usage, active_ms: 1, duration_ms: 2 }],
      ["run.failed", { error: { code: "late", message: "" } }],
      ["run.started", SAMPLE_DATA["run.started"]],
      ["run.paused", { reason: "late" }],
      ["agent.message", { session: "s", turn: 1, text: "late" }],
    ]),
  );
  assert.equal(state.status, "succeeded");
  assert.equal(state.error, undefined);
  assert.equal(state.ended_at, "2026-11-29T10:00:03.000Z");
  assert.deepEqual(state.warnings, [
    "run.failed after the run ended",
    "run.started after the run ended",
    "run.paused after the run ended",
    "agent.message after the run ended",
  ]);
});

test("totality: a repeated seq, a gap and an out-of-order seq are warned about", () => {
  const state = foldRun([mk(1, "log", {}), mk(1, "log", {}), mk(2, "log", {}), mk(5, "log", {}), mk(3, "log", {})]);
  assert.deepEqual(state.warnings, ["seq 1 repeated or out of order", "gap: seq 3 to 4 missing", "seq 3 repeated or out of order"]);
  assert.equal(state.last_seq, 5);
});

test("totality: tool.completed without a start, a call started twice, and a call without an id are warned about", () => {
  const state = foldRun([
    mk(1, "tool.completed", { call: "c_9", status: "completed" }),
    mk(2, "tool.started", { call: "c_1" }),
    mk(3, "tool.started", { call: "c_1" }),
    mk(4, "tool.started", { tool: "read" }),
  ]);
  assert.deepEqual(state.warnings, [
    "tool call c_9 completed without a start",
    "tool call c_1 started twice",
    "tool.started without a call id",
  ]);
});

test("totality: an event of another run is ignored with a warning", () => {
  const state = foldRun([mk(1, "agent.message", {}), mk(2, "agent.message", {}, "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1B")]);
  assert.equal(state.counts.messages, 1);
  assert.deepEqual(state.warnings, ["event from another run run_01JD7Q2W3E4R5T6Y7V8X9Z0P1B ignored"]);
});

test("totality: data of the wrong shape never throws and is warned about", () => {
  const wrong: unknown[] = [null, undefined, "text", 42, [1, 2], true];
  for (const data of wrong) {
    for (const type of ["run.created", "run.failed", "tool.started", "tool.completed", "usage.updated", "future.type"]) {
      const state = foldRun([mk(1, type, data)]);
      assert.ok(state.warnings.length > 0, `${type} with data ${JSON.stringify(data)}`);
    }
  }
  const odd = foldRun([
    mk(1, "usage.updated", { session: "s", basis: "delta", input_tokens: "12", output_tokens: -4, cost_usd: Number.NaN }),
    mk(2, "run.failed", { error: "boom" }),
    mk(3, "run.created", { number: "7", task: 3, at: null }),
  ]);
  assert.deepEqual(odd.usage, { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 });
  assert.deepEqual(odd.error, { code: "unknown", message: "" });
  assert.equal(odd.number, undefined);
  assert.deepEqual(odd.warnings.slice(0, 2), ["usage.updated input_tokens is not a count", "usage.updated output_tokens is not a count"]);
});

test("totality: session ids like __proto__ and constructor are ordinary sessions", () => {
  const state = foldRun([
    mk(1, "usage.updated", { session: "__proto__", basis: "delta", input_tokens: 1 }),
    mk(2, "usage.updated", { session: "constructor", basis: "total", input_tokens: 2 }),
    mk(3, "usage.updated", { session: "toString", basis: "delta", input_tokens: 4 }),
  ]);
  assert.equal(state.usage.input_tokens, 7);
  assert.deepEqual(Object.keys(state.sessions), ["__proto__", "constructor", "toString"]);
  assert.equal(Object.getPrototypeOf(state.sessions), Object.prototype);
  assert.equal(({} as Record<string, unknown>)["usage"], undefined, "Object.prototype untouched");
});

test("totality: unparseable timestamps give no duration instead of NaN", () => {
  const state = foldRun([
    { ...mk(1, "run.created", SAMPLE_DATA["run.created"]), at: "yesterday" },
    mk(2, "run.failed", { error: { code: "x", message: "" } }),
  ]);
  assert.equal(state.status, "failed");
  assert.equal(state.duration_ms, undefined);
});

/** A small deterministic PRNG (mulberry32), so a failing order can be replayed from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const garbageData: unknown[] = [null, "x", [], 7, { session: 1, call: {}, basis: "total", input_tokens: "a", error: [] }, { call: "c_1" }, {}];

test("totality: 2,000 random and garbage orders fold without throwing, with bounded warnings", () => {
  const pool = [...sampleEvents(), ...logOf([[...created], [...started], ["run.paused", { reason: "r" }], ["mystery.event", { a: 1 }]])];
  for (let seed = 1; seed <= 2000; seed += 1) {
    const next = random(seed);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const events: Envelope[] = Array.from({ length: Math.floor(next() * 40) }, () => {
      const event = structuredClone(pick(pool)) as Envelope;
      const roll = next();
      if (roll < 0.15) event.data = pick(garbageData) as Record<string, unknown>;
      if (roll > 0.85) delete event.seq;
      else event.seq = 1 + Math.floor(next() * 30);
      return event;
    });
    let stepwise = initialRunState();
    try {
      const folded = foldRun(events);
      for (const event of events) stepwise = foldEvent(stepwise, event);
      assert.deepEqual(stepwise, folded, "foldEvent step by step equals foldRun");
      assert.ok(folded.warnings.length <= 100);
      assert.ok(Object.values(folded.counts).every((n) => Number.isInteger(n) && n >= 0));
      assert.ok(Object.values(folded.usage).every((n) => typeof n === "number" && Number.isFinite(n) && n >= 0));
      const inOrder = events.every((event, i) => event.seq === i + 1);
      if (!inOrder && events.some((event) => event.seq !== undefined)) assert.ok(folded.warnings.length > 0, "a broken order is noticed");
    } catch (error) {
      assert.fail(`seed ${seed}: ${(error as Error).stack ?? String(error)}`);
    }
  }
});

test("totality: a long broken log keeps at most 100 warnings", () => {
  const state = foldRun(Array.from({ length: 500 }, () => mk(1, "tool.completed", { call: "c_x" })));
  assert.equal(state.warnings.length, 100);
});

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

test("foldEvent does not mutate its input state or event", () => {
  const before: RunState = foldRun(logOf([[...created], [...started], ["tool.started", { session: "s", call: "c_1", tool: "t", kind: "k" }]]));
  const snapshot = structuredClone(before);
  deepFreeze(before);
  const events = [
    mk(4, "tool.completed", { session: "s", call: "c_1", tool: "t", status: "failed", is_error: true, duration_ms: 1, output_chars: 0 }),
    mk(5, "usage.updated", { session: "s", basis: "delta", input_tokens: 3, cost_usd: 0.1 }),
    mk(6, "run.failed", { error: { code: "x", message: "y" } }),
    mk(6, "unknown.type", null),
  ].map(deepFreeze);
  const eventSnapshot = structuredClone(events);
  let state = before;
  for (const event of events) state = foldEvent(state, event);
  assert.deepEqual(before, snapshot);
  assert.deepEqual(events, eventSnapshot);
  assert.equal(state.status, "failed");
  assert.notEqual(state, before);
});

test("applyEvent updates the state in place", () => {
  const state = initialRunState();
  applyEvent(state, mk(1, "turn.started", { session: "s", turn: 1, reason: "task" }));
  assert.equal(state.counts.turns, 1);
  assert.equal(state.last_seq, 1);
});

test("workspace.ready and git.committed give the run its workspace, branch and commit", () => {
  const state = foldRun(logOf([[...created], [...started], ["workspace.ready", SAMPLE_DATA["workspace.ready"]], ["git.committed", SAMPLE_DATA["git.committed"]]]));
  assert.deepEqual(state.workspace, {
    kind: "worktree",
    path: "/tmp/repo/.baton/worktrees/7-fix-the-flaky-date-test",
    branch: "baton/7-fix-the-flaky-date-test",
    base: "main",
    base_branch: "main",
    base_sha: "0123abcd",
  });
  assert.deepEqual(state.commit, { sha: "89abcdef", branch: "baton/7-fix-the-flaky-date-test", message: "Fix the flaky date test", files: 2 });
  assert.deepEqual(state.warnings, []);
});

test("a failed run resumed by a new run.started (resumed) is running again, without a warning; any other event after the failure is warned about", () => {
  const failed: [string, Record<string, unknown>][] = [
    [...created],
    [...started],
    ["run.failed", { error: { code: "interrupted", message: "its writer died" } }],
  ];
  const resumed = foldRun(logOf([...failed, ["run.started", { attempt: 2, resumed: true, pid: 2, host: "h" }]]));
  assert.equal(resumed.status, "running");
  assert.equal(resumed.error, undefined);
  assert.deepEqual(resumed.warnings, []);
  const late = foldRun(logOf([...failed, ["log", { level: "info", message: "late" }]]));
  assert.equal(late.status, "failed");
  assert.match(late.warnings[0] ?? "", /after the run ended/);
});
