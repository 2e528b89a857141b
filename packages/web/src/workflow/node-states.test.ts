import assert from "node:assert/strict";
import { test } from "node:test";
import { definedFields, foldRun, type Envelope } from "@baton/protocol/core";
import { nodeStates } from "./node-states.ts";

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";
let seq = 0;
const ev = (type: string, data: Record<string, unknown>, stage?: string): Envelope => {
  seq += 1;
  return definedFields({ v: 1, run: RUN, seq, at: new Date(Date.UTC(2026, 10, 29, 10, 0, seq)).toISOString(), type, stage: stage === undefined ? undefined : { id: stage, visit: 1 }, data });
};
const started = (stage: string, attempt = 1) => ev("stage.started", { stage, handler: "agent", visit: 1, attempt, max_attempts: 2 }, stage);
const states = (events: Envelope[]) => Object.fromEntries([...nodeStates(foldRun(events))].map(([id, view]) => [id, view.state]));

const loaded = () => [
  ev("run.created", { number: 1, task: "t", agent: "fake", repo: { root: "/r", dirty: false } }),
  ev("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }),
  ev("workflow.loaded", { name: "w", nodes: ["start", "plan", "gate", "exit"].map((id) => ({ id, handler: id === "gate" ? "human" : "agent" })), edges: [] }),
];

test("nodes start not visited; a stage is running, then succeeded or failed; a gate that asks is waiting", () => {
  seq = 0;
  const events = loaded();
  assert.deepEqual(states(events), { start: "not_visited", plan: "not_visited", gate: "not_visited", exit: "not_visited" });
  events.push(started("plan"));
  assert.equal(states(events)["plan"], "running");
  events.push(ev("stage.failed", { stage: "plan", visit: 1, error: { code: "x", message: "y" }, class: "transient_infra", will_retry: true, duration_ms: 1 }, "plan"));
  assert.equal(states(events)["plan"], "running", "a failed attempt that will be retried is still under way");
  events.push(started("plan", 2), ev("stage.completed", { stage: "plan", visit: 1, outcome: "partially_succeeded", duration_ms: 1 }, "plan"));
  assert.equal(states(events)["plan"], "succeeded");
  assert.equal(nodeStates(foldRun(events)).get("plan")?.words, "partially succeeded");
  events.push(started("gate"), ev("approval.requested", { gate: "gate", question: "Go?", options: [{ label: "Go", to: "exit" }], freeform: false }, "gate"), ev("run.paused", { reason: "approval", gate: "gate" }));
  assert.deepEqual(states(events), { start: "not_visited", plan: "succeeded", gate: "waiting", exit: "not_visited" });
});

test("a stage still open when the run has ended shows failed (interrupted), never running", () => {
  seq = 0;
  const events = [...loaded(), started("plan"), ev("run.failed", { error: { code: "interrupted", message: "the writer died" } })];
  assert.deepEqual(nodeStates(foldRun(events)).get("plan"), { state: "failed", words: "interrupted", visits: 1 });
});
