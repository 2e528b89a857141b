import assert from "node:assert/strict";
import { test } from "node:test";
import { definedFields, type Envelope } from "@baton/protocol/core";
import { groupByStage, type TimelineSection } from "./stage-groups.ts";
import { applyEvents, initialTimeline } from "./timeline.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";
let seq = 0;
const ev = (type: string, data: Record<string, unknown>, stage?: { id: string; visit: number; branch?: string }): Envelope => {
  seq += 1;
  return definedFields({ v: 1, run: RUN, seq, at: new Date(Date.UTC(2026, 10, 29, 10, 0, seq)).toISOString(), type, stage, data });
};

const shape = (sections: TimelineSection[]): unknown[] =>
  sections.map((section) =>
    section.kind === "item" ? section.item.seqs : section.kind === "stage" ? { [section.key]: section.items.map((item) => item.seqs) } : { [`branch ${section.branch}`]: shape(section.stages) },
  );

test("a workflow run's items are grouped by stage visit, a branch's visits under their branch; every event is in one group once", () => {
  seq = 0;
  const plan = { id: "plan", visit: 1 };
  const gate = { id: "gate", visit: 1 };
  const state = applyEvents(initialTimeline(), [
    ev("run.started", { attempt: 1 }),
    ev("stage.started", { stage: "plan", handler: "agent", visit: 1, attempt: 1, max_attempts: 1 }, plan),
    ev("tool.started", { session: "s", call: "c_1", tool: "run" }, plan),
    ev("budget.updated", { tokens: 1, tool_calls: 0, elapsed_ms: 1, limits: {} }, plan),
    ev("tool.completed", { session: "s", call: "c_1", tool: "run", status: "completed" }, plan),
    ev("stage.started", { stage: "gate", handler: "human", visit: 1, attempt: 1, max_attempts: 1 }, gate),
    ev("budget.updated", { tokens: 1, tool_calls: 0, elapsed_ms: 2, limits: {} }, gate),
    ev("run.paused", { reason: "approval", gate: "gate" }),
    ev("run.started", { attempt: 2, resumed: true }),
    ev("approval.resolved", { gate: "gate", choice: "Go", approved: true, by: "ada", via: "web" }, gate),
    ev("agent.message", { session: "b", text: "in a branch" }, { id: "review", visit: 1, branch: "a" }),
    ev("agent.message", { session: "b", text: "again" }, { id: "review", visit: 2, branch: "a" }),
    ev("run.completed", { status: "succeeded" }),
  ]);
  assert.deepEqual(shape(groupByStage(state.items)), [
    [1],
    { "/plan@1": [[2], [3, 5], [4]] },
    { "/gate@1": [[6], [7], [10]] },
    [8],
    [9],
    { "branch a": [{ "a/review@1": [[11]] }, { "a/review@2": [[12]] }] },
    [13],
  ]);
  assert.equal(state.items.find((item) => item.kind === "tool")?.stage?.id, "plan", "a tool call keeps its stage when it completes");
  assert.equal(state.items.filter((item) => item.kind === "note" && item.type === "budget.updated").length, 2, "budget rows do not join across stages");
});

test("a run without stages has no stage on any item", () => {
  seq = 0;
  const state = applyEvents(initialTimeline(), [ev("run.started", { attempt: 1 }), ev("agent.message", { session: "s", text: "hi" }), ev("run.completed", { status: "succeeded" })]);
  assert.ok(state.items.every((item) => !("stage" in item)));
});
