import assert from "node:assert/strict";
import { test } from "node:test";
import { definedFields, type Envelope } from "@baton/protocol/core";
import { applyEvents, initialTimeline } from "./timeline.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";
let seq = 0;
const ev = (type: string, data: Record<string, unknown>, stage?: { id: string; visit: number; branch?: string }): Envelope => {
  seq += 1;
  return definedFields({ v: 1, run: RUN, seq, at: new Date(Date.UTC(2026, 10, 29, 10, 0, seq)).toISOString(), type, stage, data });
};

test("workflow events are lines of text that say what happened", () => {
  seq = 0;
  const state = applyEvents(initialTimeline(), [
    ev("route.selected", { from: "check", to: "approve", condition: "outcome=succeeded", reason: "condition" }),
    ev("approval.requested", { gate: "approve", question: "Ship <b>it</b>?", options: [{ label: "Approve", to: "exit" }, { label: "Revise", to: "plan" }], freeform: false }),
    ev("approval.resolved", { gate: "approve", choice: "Approve", approved: true, by: "ada", via: "web", comment: "fine" }),
    ev("stage.failed", { stage: "check", visit: 1, error: { code: "exit_code", message: "exit 1" }, class: "deterministic", will_retry: false, duration_ms: 5 }),
    ev("integration.conflicted", { stage: "join", branch: "b", files: ["a.txt", "b.txt"] }),
  ]);
  assert.deepEqual(
    state.items.map((item) => (item.kind === "note" ? [item.text, item.tone, item.known] : item.kind)),
    [
      ["→ approve · when outcome=succeeded · condition", "dim", true],
      ["waiting for an answer: Ship <b>it</b>? · Approve / Revise", "warn", true],
      ["answered Approve · by ada · via web · fine", "info", true],
      ["stage check failed · exit_code · exit 1", "error", true],
      ["branch b conflicts: a.txt, b.txt", "error", true],
    ],
  );
});
