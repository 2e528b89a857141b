import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import type { RunRow } from "../api/client.ts";
import { applyFeedEvent, changesOverview, filterRows } from "./run-list.ts";

const at = "2026-11-29T10:00:00.000Z";
const feed = (run: string, pos: number, type: string, data: Record<string, unknown> = {}, number = 1): Envelope => ({ v: 1, run, seq: pos, pos, number, at, type, data });

test("a created run is added on top and follows its lifecycle", () => {
  const older: RunRow = { id: "run_A", number: 1, status: "succeeded" };
  let rows: readonly RunRow[] = [older];
  rows = applyFeedEvent(rows, feed("run_B", 5, "run.created", { task: "t", agent: "fake" }, 2));
  assert.deepEqual(rows.map((r) => [r.number, r.status]), [[2, "created"], [1, "succeeded"]]);
  rows = applyFeedEvent(rows, feed("run_B", 6, "run.started", {}, 2));
  rows = applyFeedEvent(rows, feed("run_B", 7, "agent.message", { text: "x" }, 2));
  assert.equal(rows[0]!.status, "running");
  rows = applyFeedEvent(rows, feed("run_B", 8, "run.failed", { error: { code: "x", message: "y" } }, 2));
  assert.equal(rows[0]!.status, "failed");
  assert.equal(rows[1], older, "other rows are kept as they are");
});

test("events of a run the list does not know yet are left to the refetch", () => {
  const rows: readonly RunRow[] = [];
  assert.equal(applyFeedEvent(rows, feed("run_C", 1, "run.started")), rows);
});

test("the filter keeps one status; the figures are read again after the events that move them", () => {
  const rows = [
    { id: "a", number: 2, status: "running" },
    { id: "b", number: 1, status: "succeeded" },
  ];
  assert.deepEqual(filterRows(rows, "").map((row) => row.id), ["a", "b"]);
  assert.deepEqual(filterRows(rows, "succeeded").map((row) => row.id), ["b"]);
  assert.deepEqual(filterRows(rows, "failed"), []);
  const event = (type: string) => ({ v: 1, run: "a", seq: 1, at: "2026-01-01T00:00:00.000Z", type, data: {} });
  for (const type of ["permission.requested", "permission.resolved", "approval.requested", "stage.started", "git.committed", "run.completed"]) assert.equal(changesOverview(event(type)), true, type);
  for (const type of ["agent.message", "tool.started", "usage.updated"]) assert.equal(changesOverview(event(type)), false, type);
});
