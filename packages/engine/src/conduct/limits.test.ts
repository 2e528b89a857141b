import assert from "node:assert/strict";
import { test } from "node:test";
import { initialRunState } from "@baton/protocol";
import { atLimit, limitUses, mostUsed, nearLimit } from "./limits.ts";

test("uses are measured from the folded run: time, reported cost, tokens, tool calls; the most used one leads", () => {
  const state = initialRunState();
  state.cost_usd = 0.5;
  state.usage.input_tokens = 300;
  state.usage.output_tokens = 100;
  state.counts.tool_calls = 9;
  const uses = limitUses({ timeoutMs: 10_000, costUsd: 1, tokens: 1_000, toolCalls: 10 }, state, 2_000);
  assert.deepEqual(uses.map((u) => [u.limit, u.used, u.fraction]), [["time", 2_000, 0.2], ["cost", 0.5, 0.5], ["tokens", 400, 0.4], ["tool_calls", 9, 0.9]]);
  assert.equal(mostUsed(uses)?.limit, "tool_calls");
  assert.deepEqual(limitUses({}, state, 2_000), []);
  assert.equal(mostUsed([]), undefined);
});

test("hand-back comes at 95%, or one call before a small tool-call cap; the limit itself at 100%", () => {
  assert.equal(nearLimit({ limit: "time", used: 949, max: 1_000, fraction: 0.949 }), false);
  assert.equal(nearLimit({ limit: "time", used: 950, max: 1_000, fraction: 0.95 }), true);
  assert.equal(nearLimit({ limit: "tool_calls", used: 8, max: 10, fraction: 0.8 }), false);
  assert.equal(nearLimit({ limit: "tool_calls", used: 9, max: 10, fraction: 0.9 }), true);
  assert.equal(nearLimit({ limit: "tool_calls", used: 94, max: 100, fraction: 0.94 }), false);
  assert.equal(nearLimit({ limit: "tool_calls", used: 95, max: 100, fraction: 0.95 }), true);
  assert.equal(atLimit({ limit: "cost", used: 0.99, max: 1, fraction: 0.99 }), false);
  assert.equal(atLimit({ limit: "cost", used: 1.01, max: 1, fraction: 1.01 }), true);
  assert.equal(atLimit({ limit: "tool_calls", used: 10, max: 10, fraction: 1 }), false);
  assert.equal(atLimit({ limit: "tool_calls", used: 11, max: 10, fraction: 1.1 }), true);
});
