import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "./constants.ts";
import { isFinalStatus } from "./event-types.ts";
import { applyToCatalog, type CatalogPatch } from "./catalog-fold.ts";

const at = (n: number) => `2026-01-01T00:00:0${n}.000Z`;
const event = (type: string, data: Record<string, unknown>, n: number): Envelope => ({ v: 1, run: "run_x", seq: n, at: at(n), type, data });

test("the catalog follows a run's lifecycle: created, started, paused, resumed, completed as stopped", () => {
  const patch: CatalogPatch = {};
  applyToCatalog(patch, event("run.created", { number: 7, task: "t", agent: "a", model: "m" }, 1));
  assert.deepEqual({ ...patch }, { number: 7, task: "t", agent: "a", model: "m", created_at: at(1) });
  applyToCatalog(patch, event("run.started", { pid: 42 }, 2));
  applyToCatalog(patch, event("log", { level: "info", message: "x" }, 3));
  applyToCatalog(patch, event("run.paused", { reason: "gate" }, 4));
  assert.equal(patch.status, "paused");
  assert.equal(patch.ended_at, at(4));
  applyToCatalog(patch, event("run.started", { pid: 43 }, 5));
  assert.equal(patch.status, "running");
  assert.equal(patch.started_at, at(2), "a resume keeps the first start");
  assert.equal(patch.ended_at, null, "a resumed run has not ended");
  assert.equal(patch.pid, 43);
  applyToCatalog(patch, event("run.completed", { status: "stopped" }, 6));
  assert.equal(patch.status, "stopped");
});

test("failed and cancelled set their status; final statuses are recognized", () => {
  for (const [type, status] of [
    ["run.failed", "failed"],
    ["run.cancelled", "cancelled"],
    ["run.completed", "succeeded"],
  ] as const) {
    const patch: CatalogPatch = {};
    applyToCatalog(patch, event(type, {}, 1));
    assert.equal(patch.status, status);
    assert.ok(isFinalStatus(patch.status));
  }
  assert.equal(isFinalStatus("paused"), false);
  assert.equal(isFinalStatus("running"), false);
});
