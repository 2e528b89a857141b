import assert from "node:assert/strict";
import { test } from "node:test";
import { definedFields, type Envelope } from "@baton/protocol/core";
import { applyEvents, clearStreaming, initialTimeline, type TimelineState } from "./timeline.ts";
import type { ToolItem } from "./items.ts";
import { permissionWords } from "./permission-words.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";
let clock = 0;
const at = () => new Date(Date.UTC(2026, 10, 29, 10, 0, 0, clock++)).toISOString();
const ev = (seq: number | undefined, type: string, data: Record<string, unknown> = {}): Envelope => definedFields({ v: 1, run: RUN, seq, at: at(), type, data });

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
  assert.deepEqual(state.items[6], { kind: "permission", seqs: [7, 8], call: "c_1", tool: "run", decision: "allow_once", by: "policy", rule: "default", turn: 1 });
  // Items between a turn's start and its end belong to it; the run's own events to none.
  assert.deepEqual(state.items.map((i) => i.turn), [undefined, undefined, 1, 1, 1, 1, 1, 1, 1, 1, 1, undefined]);
  assert.equal(state.summary.status, "succeeded");
  assert.equal(state.summary.number, 3);
  assert.deepEqual(state.summary.usage, { input_tokens: 11, output_tokens: 6, cache_read_tokens: 0, cache_write_tokens: 0 });
  assert.equal(state.summary.cost_usd, 0.03);
  assert.deepEqual(state.items[9], { kind: "note", seqs: [12], type: "brand.new", text: "brand.new", tone: "dim", known: false, turn: 1 });
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
  const types = ["budget.updated", "limit.warning", "limit.reached", "provider.error", "retry.scheduled", "model.switched", "stall.detected", "repeat.detected", "handback.requested", "turn.started", "run.completed"];
  const odd = { limit: 3, fraction: "x", limits: null, used: {}, reason: 7, status: "stopped", stopped_by: 1, message: 5, idle_ms: "1", handed_back: "yes" };
  const reliability = applyEvents(initialTimeline(), types.map((type, index) => ev(index + 1, type, odd)));
  assert.deepEqual(seqsOf(reliability), types.map((_, index) => index + 1));
});

const notes = (state: TimelineState) => state.items.map((item) => (item.kind === "note" ? [item.text, item.tone] : item.kind));

test("each limit and reliability event is a line of text with its facts", () => {
  const state = applyEvents(initialTimeline(), [
    ev(1, "turn.started", { session: "s", turn: 1, reason: "task" }),
    ev(2, "limit.warning", { limit: "time", used: 480_000, max: 600_000, fraction: 0.8, threshold: 0.8, notified: true }),
    ev(3, "limit.reached", { limit: "cost", used: 0.96, max: 1, fraction: 0.96, action: "handback" }),
    ev(4, "handback.requested", { reason: "limit", limit: "cost" }),
    ev(5, "turn.started", { session: "s", turn: 2, reason: "handback" }),
    ev(6, "limit.reached", { limit: "tool_calls", used: 500, max: 500, fraction: 1, action: "stop" }),
    ev(7, "provider.error", { class: "rate_limited", status: 429, retry_after_ms: 5000, source: "error", message: "API Error: 429 <b>slow down</b>\nmore" }),
    ev(8, "retry.scheduled", { what: "turn", class: "rate_limited", attempt: 1, max_attempts: 3, delay_ms: 12_345 }),
    ev(9, "turn.started", { session: "s", turn: 3, reason: "resend" }),
    ev(10, "model.switched", { session: "s", from: "big", to: "small", reason: "overloaded" }),
    ev(11, "stall.detected", { session: "s", turn: 3, idle_ms: 120_000, action: "resend" }),
    ev(12, "repeat.detected", { session: "s", tool: "execute", count: 5, action: "notice", notified: false }),
  ]);
  assert.deepEqual(notes(state), [
    ["turn 1", "dim"],
    ["time limit 80% used (8m of 10m); the agent was told", "warn"],
    ["cost limit nearly reached: 96% used ($0.96 of $1.00)", "warn"],
    ["asking the agent to hand back its work (cost limit)", "warn"],
    ["turn 2: the hand-back prompt", "info"],
    ["tool call limit reached (500 of 500 tool calls): stopping the run", "error"],
    ["provider error: rate_limited (429, retry-after 5.0s) — API Error: 429 <b>slow down</b>", "error"],
    ["retry 1/3 in 12.3s", "warn"],
    ["turn 3: the turn sent again", "info"],
    ["model switched: big → small (overloaded)", "warn"],
    ["stalled: nothing from the agent for 2m; sending the turn again", "warn"],
    ["loop: the same execute call 5 times in a row (same input, same result); the agent takes no notices", "warn"],
  ]);
  assert.ok(state.items.every((item) => item.kind !== "note" || item.known));
});

test("budgets make one row per tenth of the most used limit; the others join the latest row", () => {
  const budget = (seq: number, elapsed: number, fraction?: number) =>
    ev(seq, "budget.updated", { tokens: 10, tool_calls: 1, elapsed_ms: elapsed, limits: fraction === undefined ? {} : { timeout_ms: 600_000 }, ...(fraction === undefined ? {} : { limit: "time", fraction }) });
  const state = applyEvents(initialTimeline(), [
    budget(1, 6_000, 0.01),
    ev(2, "tool.started", { session: "s", call: "c_1", tool: "run" }),
    budget(3, 30_000, 0.05),
    budget(4, 61_000, 0.1017),
    ev(5, "tool.completed", { session: "s", call: "c_1", tool: "run", status: "completed" }),
    budget(6, 90_000, 0.15),
  ]);
  assert.deepEqual(seqsOf(state), [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(
    state.items.map((item) => [item.kind, item.seqs, item.kind === "note" ? item.text : ""]),
    [
      ["note", [1, 3], "budget: time limit 5% used (30s of 10m)"],
      ["tool", [2, 5], ""],
      ["note", [4, 6], "budget: time limit 15% used (1m 30s of 10m)"],
    ],
  );
  const unlimited = applyEvents(initialTimeline(), [budget(1, 1000), budget(2, 2000)]);
  assert.deepEqual(unlimited.items, [{ kind: "note", seqs: [1, 2], type: "budget.updated", text: "budget: no limits · 10 tokens · 1 tool call", tone: "dim", known: true }]);
});

test("a stopped run says what stopped it; a failed one names the provider's class", () => {
  const created = ev(1, "run.created", { number: 1, task: "t", agent: "fake", repo: { root: "/r", dirty: false } });
  const stopped = applyEvents(initialTimeline(), [
    created,
    ev(2, "run.completed", { status: "stopped", stopped_by: "provider", provider_error: "overloaded", handed_back: true, usage: {}, active_ms: 1, duration_ms: 2 }),
  ]);
  assert.deepEqual(stopped.items.at(-1), { kind: "end", seqs: [2], status: "stopped", stoppedBy: "the model provider (overloaded)", handedBack: true, costUsd: undefined, durationMs: 2 });
  assert.equal(stopped.summary.status, "stopped");
  assert.equal(stopped.summary.stopped_by, "provider");
  assert.equal(stopped.summary.provider_error, "overloaded");
  const byTime = applyEvents(initialTimeline(), [created, ev(2, "run.completed", { status: "stopped", stopped_by: "time", usage: {}, active_ms: 1, duration_ms: 2 })]);
  assert.equal((byTime.items.at(-1) as { stoppedBy?: string }).stoppedBy, "the time limit");
  const failed = applyEvents(initialTimeline(), [created, ev(2, "run.failed", { error: { code: "provider_unreachable", message: "refused" }, provider_error: "unreachable" })]);
  assert.deepEqual(failed.items.at(-1), { kind: "end", seqs: [2], status: "failed", errorCode: "provider_unreachable", message: "refused", providerError: "unreachable" });
  assert.equal(failed.summary.provider_error, "unreachable");
});

test("around a tool-call cap the page reads in log order: the warning, the hand-back, the call not granted in the cancelled turn", () => {
  // The log of a run capped at 4 tool calls, as Baton writes it (packages/cli/src/e2e/limits.e2e.test.ts).
  const events = [
    ev(1, "tool.completed", { session: "s", call: "c3", tool: "execute", status: "completed", is_error: false, duration_ms: 5, output_chars: 0 }),
    ev(2, "budget.updated", { tokens: 0, tool_calls: 3, elapsed_ms: 900, limits: { tool_calls: 4 }, limit: "tool_calls", fraction: 0.75 }),
    ev(3, "limit.warning", { limit: "tool_calls", used: 3, max: 4, fraction: 0.75, threshold: 0.6, notified: false }),
    ev(4, "limit.reached", { limit: "tool_calls", used: 3, max: 4, fraction: 0.75, action: "handback" }),
    ev(5, "tool.started", { session: "s", call: "c4", tool: "execute", kind: "execute", title: "Run echo step 2" }),
    ev(6, "permission.requested", { session: "s", call: "c4", tool: "execute", options: [] }),
    ev(7, "permission.resolved", { session: "s", call: "c4", decision: "cancelled", by: "policy", rule: "default:turn-cancelled" }),
    ev(8, "tool.completed", { session: "s", call: "c4", tool: "execute", status: "failed", is_error: true, duration_ms: 2, output_chars: 0 }),
    ev(9, "turn.completed", { session: "s", turn: 1, stop_reason: "cancelled", duration_ms: 100 }),
    ev(10, "handback.requested", { reason: "limit", limit: "tool_calls" }),
    ev(11, "turn.started", { session: "s", turn: 2, reason: "handback" }),
  ];
  const items = applyEvents(initialTimeline(), events).items;
  const shown = items.map((item) => (item.kind === "note" ? item.text : item.kind === "permission" ? `permission ${permissionWords(item).decision} (${permissionWords(item).how})` : item.kind === "tool" ? `tool ${item.title ?? ""} ${item.status}` : item.kind));
  assert.deepEqual(shown, [
    "tool  completed",
    "budget: tool call limit 75% used (3 of 4 tool calls)",
    "tool call limit 75% used (3 of 4 tool calls)",
    "tool call limit nearly reached: 75% used (3 of 4 tool calls)",
    "tool Run echo step 2 failed",
    "permission cancelled (its turn was being cancelled)",
    "turn 1 ended · cancelled · 100 ms",
    "asking the agent to hand back its work (tool call limit)",
    "turn 2: the hand-back prompt",
  ]);
});

test("a mid-turn prompt's turn nests in the running one; usage is charted over time and per turn; inputs follow their events", () => {
  const events = [
    ev(1, "run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }),
    ev(2, "turn.started", { session: "s", turn: 1, reason: "task" }),
    ev(3, "usage.updated", { session: "s", basis: "delta", input_tokens: 10, output_tokens: 5, cost_usd: 0.01 }),
    ev(4, "input.queued", { id: "inp_1", by: "web", text: "also this", chars: 9 }),
    ev(5, "turn.started", { session: "s", turn: 2, reason: "steer" }),
    ev(6, "input.delivered", { id: "inp_1", how: "mid_turn", turn: 2 }),
    ev(7, "turn.completed", { session: "s", turn: 2, stop_reason: "end_turn" }),
    ev(8, "agent.message", { session: "s", text: "back in turn 1" }),
    ev(9, "usage.updated", { session: "s", basis: "delta", input_tokens: 3, output_tokens: 2, cost_usd: 0.02 }),
    ev(10, "turn.completed", { session: "s", turn: 1, stop_reason: "end_turn" }),
  ];
  const queued = applyEvents(initialTimeline(), events.slice(0, 4));
  assert.deepEqual(queued.inputs.get("inp_1"), { status: "queued" });
  const state = applyEvents(queued, events.slice(4));
  assert.deepEqual(state.items.map((item) => item.turn), [undefined, 1, 1, 1, 2, 2, 2, 1, 1, 1]);
  assert.deepEqual(state.inputs.get("inp_1"), { status: "delivered", how: "mid_turn" });
  assert.deepEqual(state.usage.points.map((point) => [point.tokens, point.costUsd]), [[15, 0.01], [20, 0.03]]);
  assert.deepEqual(state.usage.turns.map((turn) => [turn.turn, turn.tokens, Math.round(turn.costUsd * 100) / 100]), [[1, 20, 0.03]]);
  assert.equal(state.turns.length, 0);
  assert.match(state.items[3]!.kind === "note" ? state.items[3]!.text : "", /^web steered: also this$/);
});

test("a question the agent asked is one item from question.asked to question.answered: its form while it waits, what the agent got after", () => {
  const fields = [
    { name: "db", type: "string", required: true, title: "Database", options: [{ value: "postgres", title: "PostgreSQL", description: "ours" }, { value: "sqlite" }] },
    { name: "replicas", type: "integer", required: false, min: 1, max: 5 },
  ];
  const asked = [
    ev(1, "run.created", { number: 3, task: "t", agent: "fake", repo: { root: "/r", dirty: false } }),
    ev(2, "run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }),
    ev(3, "question.asked", { session: "s", id: "q_1", call: "c_1", mode: "form", message: "Which database?", fields, awaiting: "person", timeout_ms: 600_000 }),
    ev(4, "question.asked", { session: "s", id: "q_2", mode: "url", message: "Sign in", fields: [] }),
    ev(5, "question.answered", { session: "s", id: "q_2", action: "decline", by: "policy", rule: "question:unsupported", reason: "Baton puts form questions to people, not url ones" }),
  ];
  const waiting = applyEvents(initialTimeline(), asked);
  assert.deepEqual(waiting.items[2], { kind: "question", seqs: [3], id: "q_1", message: "Which database?", fields, awaitingPerson: true, timeoutMs: 600_000 });
  assert.deepEqual(waiting.items[3], { kind: "question", seqs: [4, 5], id: "q_2", message: "Sign in", fields: [], action: "decline", by: "policy", rule: "question:unsupported", reason: "Baton puts form questions to people, not url ones" });
  const answered = applyEvents(waiting, [ev(6, "question.answered", { session: "s", id: "q_1", action: "accept", content: { db: "sqlite" }, by: "human", who: "ada", via: "web" })]);
  assert.deepEqual(answered.items[2], { kind: "question", seqs: [3, 6], id: "q_1", message: "Which database?", fields, awaitingPerson: true, timeoutMs: 600_000, action: "accept", content: { db: "sqlite" }, by: "human", who: "ada" });
  assert.deepEqual(seqsOf(answered), [1, 2, 3, 4, 5, 6]);
});
