import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { deliveryEventLines } from "./delivery-lines.ts";

const event = (type: string, data: Record<string, unknown>): Envelope => ({ v: 1, run: "run_01JD7Q2W3E4R5T6Y7U8I9O0P1A", seq: 1, at: "2026-12-01T10:00:00.000Z", type, data });

test("delivery events have a line each: the push, the pull request or why not, artefacts and subtasks", () => {
  const lines = (type: string, data: Record<string, unknown>) => deliveryEventLines(event(type, data))?.map(([, line]) => line);
  assert.deepEqual(lines("git.pushed", { remote: "origin", branch: "baton/1-x", sha: "0123456789abcdef" }), ["  ⇡ pushed baton/1-x to origin · 0123456789ab"]);
  assert.deepEqual(lines("pull_request.created", { number: 7, draft: true, url: "https://github.com/a/b/pull/7" }), ["  ⇡ pull request #7 (draft): https://github.com/a/b/pull/7"]);
  assert.deepEqual(lines("pull_request.failed", { error: { code: "push_refused", message: "origin refused the push\nmore" } }), ["  ✗ no pull request: origin refused the push"]);
  assert.deepEqual(lines("artefact.written", { kind: "plan", path: ".pipeline/plan.md" }), ["  ✎ plan: .pipeline/plan.md"]);
  assert.deepEqual(lines("subtask.updated", { id: "a", status: "building", title: "Do A" }), ["  ◇ subtask a building · Do A"]);
  assert.deepEqual(lines("subtask.integrated", { id: "a", commit: "fedcba9876543210", conflicts: [] }), ["  ⤵ subtask a integrated · fedcba987654"]);
  assert.deepEqual(lines("subtask.integrated", { id: "b", commit: null, conflicts: ["x.txt"] }), ["  ✗ subtask b not integrated: conflicts in x.txt"]);
  assert.equal(deliveryEventLines(event("stage.started", {})), undefined);
});
