import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import { applyEvents, clearStreaming, initialTimeline, type TimelineState } from "./timeline.ts";
import type { ToolItem } from "./items.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";
let clock = 0;
const at = () => new Date(Date.UTC(2026, 10, 29, 10, 0, 0, clock++)).toISOString();
const ev = (seq: number | undefined, type: string, data: Record<string, unknown> = {}): Envelope => ({ v: 1, run: RUN, ...(seq === undefined ? {} : { seq }), at: at(), type, data });

const sample: Envelope[] = [
  ev(1, "run.created", { number: 3, task: "Add a greeting", agent: "fake", repo: { root: "/r", dirty: false } }),
  ev(2, "run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }),
  ev(3, "turn.started", { session: "s", turn: 1, reason: "task" }),
  ev(4, "agent.thought", { session: "s", turn: 1, text: "hmm" }),
  ev(5, "agent.message", { session: "s", turn: 1, text: "Hello <b>there</b>" }),
  ev(6, "tool.started", { session: "s", call: "c_1", tool: "run", kind: "execute", title: "ls" }),
  ev(7, "permission.requested", { session: "s", call: "c_1", tool: "run", options: [] }),
  ev(8, "permission.resolved", { session: "s", call: "c_1", decision: "allow_once", by: "policy", rule: "default" }),
  ev(9, "tool.completed", { session: "s", call: "c_1", tool: "run", status: "completed", is_error: false, duration_ms: 12, exit_code: 0, output_chars: 3, preview: "a\nb", output_file: ".baton/x.txt" }),
  ev(10, "usage.updated", { session: "s", basis: "delta", input_tokens: 10, output_tokens: 5, cost_usd: 0.01 }),
  ev(11, "usage.updated", { session: "s", basis: "delta", input_tokens: 1, output_tokens: 1, cost_usd: 0.02 }),
  ev(12, "brand.new", { anything: [1, 2] }),
  ev(13, "turn.completed", { session: "s", turn: 1, stop_reason: "end_turn", duration_ms: 30 }),
  ev(14, "run.completed", { status: "succeeded", usage: { input_tokens: 11, output_tokens: 6 }, active_ms: 40, duration_ms: 50 }),
];

const seqsOf = (state: TimelineState) => state.items.flatMap((item) => item.seqs).sort((a, b) => a - b);

test("every durable event lands in exactly one item", () => {
  const state = applyEvents(initialTimeline(), sample);
  assert.deepEqual(seqsOf(state), sample.map((e) => e.seq));
  assert.deepEqual(state.items.map((i) => i.kind), ["note", "note", "note", "thought", "message", "tool", "permission", "note", "note", "note", "note", "end"]);
  const tool = state.items[5] as ToolItem;
  assert.equal(tool.status, "completed");
  assert.equal(tool.exitCode, 0);
  assert.equal(tool.hasOutput, true);
  assert.deepEqual(state.items[6], { kind: "permission", seqs: [7, 8], call: "c_1", tool: "run", decision: "allow_once", by: "policy", rule: "default" });
  assert.equal(state.summary.status, "succeeded");
  assert.equal(state.summary.number, 3);
  assert.deepEqual(state.summary.usage, { input_tokens: 11, output_tokens: 6, cache_read_tokens: 0, cache_write_tokens: 0 });
  assert.equal(state.summary.cost_usd, 0.03);
  assert.deepEqual(state.items[9], { kind: "note", seqs: [12], type: "brand.new", text: "brand.new", tone: "dim", known: false });
});

test("a replay after a reconnect adds nothing twice, however the events are batched", () => {
  const once = applyEvents(initialTimeline(), sample);
  let replayed = initialTimeline();
  for (let cut = 0; cut < sample.length; cut += 3) replayed = applyEvents(replayed, sample.slice(0, cut + 3));
  replayed = applyEvents(replayed, sample);
  assert.deepEqual(replayed, once);
});

test("the input state is never modified", () => {
  const first = applyEvents(initialTimeline(), sample.slice(0, 6));
  const snapshot = structuredClone(first);
  applyEvents(first, sample.slice(6));
  assert.deepEqual(first, snapshot);
});

test("deltas stream until the complete message replaces them", () => {
  let state = applyEvents(initialTimeline(), sample.slice(0, 3));
  state = applyEvents(state, [ev(undefined, "agent.delta", { session: "s", kind: "text", text: "Hel" }), ev(undefined, "agent.delta", { session: "s", kind: "text", text: "lo" })]);
  state = applyEvents(state, [ev(undefined, "agent.delta", { session: "s", kind: "thought", text: "mm" })]);
  assert.deepEqual(state.streaming, [
    { session: "s", kind: "text", text: "Hello" },
    { session: "s", kind: "thought", text: "mm" },
  ]);
  state = applyEvents(state, [ev(4, "agent.message", { session: "s", turn: 1, text: "Hello" })]);
  assert.deepEqual(state.streaming, [{ session: "s", kind: "thought", text: "mm" }]);
  assert.deepEqual(clearStreaming(state).streaming, []);
});

test("a failed run shows its error; a tool that never completes stays running", () => {
  const state = applyEvents(initialTimeline(), [
    ev(1, "run.created", { number: 1, task: "t", agent: "fake", repo: { root: "/r", dirty: false } }),
    ev(2, "run.started", {}),
    ev(3, "tool.started", { session: "s", call: "c_9", tool: "write", kind: "edit" }),
    ev(4, "run.failed", { error: { code: "interrupted", message: "the writer died" } }),
  ]);
  assert.equal((state.items[2] as ToolItem).status, "running");
  assert.deepEqual(state.items.at(-1), { kind: "end", seqs: [4], status: "failed", errorCode: "interrupted", message: "the writer died" });
  assert.deepEqual(state.summary.error, { code: "interrupted", message: "the writer died" });
});

test("malformed data never throws", () => {
  const weird = [ev(1, "tool.completed", { call: 5, status: {}, exit_code: "0" }), ev(2, "plan.updated", { entries: "no" }), { ...ev(3, "usage.updated"), data: null as never }, ev(4, "usage.updated", { session: "__proto__", input_tokens: 2 })];
  const state = applyEvents(initialTimeline(), weird);
  assert.deepEqual(seqsOf(state), [1, 2, 3, 4]);
  assert.equal(state.summary.usage.input_tokens, 2);
  assert.equal(Object.getPrototypeOf(state.summary.sessions), Object.prototype);
});
