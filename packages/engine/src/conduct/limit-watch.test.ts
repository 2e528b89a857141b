import assert from "node:assert/strict";
import { test } from "node:test";
import { applyEvent, initialRunState, type Envelope } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import { LimitWatch } from "./limit-watch.ts";
import type { RunLimits } from "./limits.ts";
import type { TokenReports } from "./token-budget.ts";

/** A watch over an in-memory log: what it appended, and what it asked of the conductor. */
function watched(limits: RunLimits, tokenReports?: TokenReports) {
  const state = initialRunState();
  const log: Array<{ type: string; data: Record<string, unknown> }> = [];
  const asked: string[] = [];
  let seq = 0;
  let handingBack = false;
  const sink = {
    state,
    append(type: string, data: Record<string, unknown>) {
      const event = { v: 1, run: "run_1", seq: (seq += 1), at: "2026-12-01T00:00:00.000Z", type, data } as Envelope;
      applyEvent(state, event);
      log.push({ type, data });
      watch.onEvent(event);
    },
  };
  const watch: LimitWatch = new LimitWatch({
    sink,
    limits,
    startedAt: performance.now(),
    canNotify: () => true,
    notify: () => asked.push("notice"),
    reached: (use, action) => {
      if (action === "handback") handingBack = true;
      asked.push(`${action} ${use.limit} ${use.used}`);
    },
    handingBack: () => handingBack,
    ...definedFields({ tokenReports }),
  });
  return { sink, watch, log, asked };
}

const call = (tokens: number) => ({ session: "s", basis: "total", context_used: tokens, context_size: 200_000 });
const turnUsage = (input: number, output: number) => ({ session: "s", basis: "delta", input_tokens: input, output_tokens: output });

test("an agent that reports each model call is stopped at the call that crosses its token budget, mid-turn", () => {
  const { sink, watch, asked } = watched({ tokens: 10_000 }, "call");
  sink.append("turn.started", { session: "s", turn: 1, reason: "task" });
  sink.append("usage.updated", call(4_000));
  assert.equal(watch.tokens(), 4_000);
  assert.deepEqual(asked, []);
  sink.append("usage.updated", call(6_500));
  assert.deepEqual(asked, ["cancel tokens 10500"]);
});

test("a turn's own report replaces its calls' counts: never counted twice, and the next turn starts from it", () => {
  const { sink, watch, log } = watched({ tokens: 100_000 }, "call");
  sink.append("turn.started", { session: "s", turn: 1, reason: "task" });
  sink.append("usage.updated", call(6_000));
  sink.append("usage.updated", call(6_300));
  sink.append("usage.updated", turnUsage(12_200, 100));
  assert.equal(watch.tokens(), 12_300);
  sink.append("turn.completed", { session: "s", turn: 1, stop_reason: "end_turn", duration_ms: 5 });
  assert.equal(log.findLast((e) => e.type === "budget.updated")?.data["tokens"], 12_300);
  // A notice is a prompt of its own: the running turn's calls still count.
  sink.append("turn.started", { session: "s", turn: 2, reason: "reminder" });
  sink.append("usage.updated", call(7_000));
  sink.append("turn.started", { session: "s", turn: 3, reason: "notice" });
  assert.equal(watch.tokens(), 19_300);
});

test("an agent that reports tokens per turn: its usage_update's context counts for nothing until the turn ends", () => {
  const { sink, watch, asked } = watched({ tokens: 500 });
  sink.append("turn.started", { session: "s", turn: 1, reason: "task" });
  sink.append("usage.updated", call(9_500));
  assert.equal(watch.tokens(), 0);
  assert.deepEqual(asked, []);
  sink.append("usage.updated", turnUsage(6_000, 50));
  // Its own report is checked with the turn's end, which follows it at once.
  assert.deepEqual(asked, []);
  sink.append("turn.completed", { session: "s", turn: 1, stop_reason: "end_turn", duration_ms: 5, usage: { input_tokens: 6_000, output_tokens: 50 } });
  assert.deepEqual(asked, ["cancel tokens 6050"]);
});

test("the marks a report passes are warnings before the stop it asks for, and the agent is not told of them", () => {
  const { sink, log, asked } = watched({ tokens: 1_000 }, "call");
  sink.append("turn.started", { session: "s", turn: 1, reason: "task" });
  sink.append("usage.updated", call(1_200));
  assert.deepEqual(
    log.filter((e) => e.type === "limit.warning").map((e) => [e.data["threshold"], e.data["notified"]]),
    [[0.6, false], [0.8, false]],
  );
  assert.deepEqual(asked, ["cancel tokens 1200"]);
});

test("after a limit asked for its hand-back, a mark it passes later is no warning", () => {
  const { sink, log, asked } = watched({ toolCalls: 4 });
  const callDone = (n: number) => {
    sink.append("tool.started", { session: "s", call: `c${n}`, tool: "execute", kind: "execute" });
    sink.append("tool.completed", { session: "s", call: `c${n}`, tool: "execute", status: "completed", is_error: false, duration_ms: 1, output_chars: 0 });
  };
  for (const n of [1, 2, 3]) callDone(n);
  // The third call (75%) passes the 60% mark and is one call before the cap: warning, then hand-back.
  assert.deepEqual(log.filter((e) => e.type === "limit.warning").map((e) => e.data["threshold"]), [0.6]);
  assert.deepEqual(asked, ["handback tool_calls 3"]);
  callDone(4);
  assert.deepEqual(log.filter((e) => e.type === "limit.warning").map((e) => e.data["threshold"]), [0.6], "no 80% warning after the hand-back");
});

const proxied = (input: number, output: number, cost: number) => ({ request_id: "r", provider: "gemini", api: "gemini", model: "m", stream: true, status: 200, duration_ms: 1, input_tokens: input, output_tokens: output, cache_read_tokens: 0, cache_write_tokens: 0, usage_reported: true, cost_usd: cost, cost_source: "table" });

test("the proxy's figures count for an agent that reports none: tokens and cost from each model.request.completed", () => {
  const { sink, asked } = watched({ tokens: 1_000, costUsd: 1 });
  sink.append("model.request.completed", proxied(400, 100, 0.2));
  assert.deepEqual(asked, []);
  sink.append("model.request.completed", proxied(400, 60, 0.3));
  assert.deepEqual(asked, ["handback tokens 960"]);
  sink.append("model.request.completed", proxied(30, 20, 0.05));
  assert.deepEqual(asked, ["handback tokens 960", "cancel tokens 1010"]);
});

test("a request cap: a hand-back one request before it; a request the proxy refused is the limit reached, at once", () => {
  const { sink, asked, log } = watched({ requests: 3 });
  sink.append("model.request.completed", proxied(1, 1, 0));
  assert.deepEqual(asked, []);
  sink.append("model.request.completed", proxied(1, 1, 0));
  assert.deepEqual(asked, ["handback requests 2"]);
  sink.append("model.request.refused", { request_id: "r", provider: "gemini", api: "gemini", model: "m", status: 403, limit: "requests", message: "cap" });
  assert.deepEqual(asked, ["handback requests 2", "cancel requests 4"]);
  assert.ok(log.some((e) => e.type === "limit.warning" && e.data["limit"] === "requests"));
});

test("a cost budget refused at the proxy while requests are still in flight cancels though the settled spend is under it", () => {
  const { sink, asked } = watched({ costUsd: 1 });
  sink.append("model.request.completed", proxied(1, 1, 0.1));
  sink.append("model.request.refused", { request_id: "r", provider: "anthropic", api: "anthropic_messages", model: "m", status: 403, limit: "cost", message: "spent" });
  assert.deepEqual(asked, ["cancel cost 1"]);
});

test("a turn that ended well with fewer tool calls reported than the model asked for is a warning; plan tools and cancelled turns are not", async () => {
  const { UnreportedToolWatch } = await import("./unreported-tools.ts");
  const watch = new UnreportedToolWatch();
  const at = (type: string, data: Record<string, unknown>) => watch.onEvent({ v: 1, run: "r", seq: 1, at: "", type, data } as Envelope);
  at("turn.started", { turn: 1, reason: "task" });
  at("model.request.completed", { status: 200, tool_calls: ["exec_command", "TodoWrite"] });
  at("model.request.completed", { status: 200, tool_calls: ["exec_command"] });
  at("tool.started", {});
  assert.match(String(at("turn.completed", { turn: 1, stop_reason: "end_turn" })?.["message"]), /asked for 2 tool call\(s\) \(exec_command\) and the agent reported 1/);
  at("turn.started", { turn: 2, reason: "task" });
  at("model.request.completed", { status: 200, tool_calls: ["exec_command"] });
  assert.equal(at("turn.completed", { turn: 2, stop_reason: "cancelled" }), undefined);
  at("turn.started", { turn: 3, reason: "task" });
  at("model.request.completed", { status: 200, tool_calls: ["Write"] });
  at("tool.started", {});
  assert.equal(at("turn.completed", { turn: 3, stop_reason: "end_turn" }), undefined);
});
