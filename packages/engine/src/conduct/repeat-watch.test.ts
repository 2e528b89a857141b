import assert from "node:assert/strict";
import { test } from "node:test";
import { RepeatWatch } from "./repeat-watch.ts";

const call = (input: unknown, output = "in progress", tool = "execute") => ({ call: "c", tool, input, status: "completed", output });

test("N identical calls in a row: a notice at N, a hand-back at N+1", () => {
  const watch = new RepeatWatch(3);
  assert.equal(watch.record(call({ command: "gh run view" })), undefined);
  assert.equal(watch.record(call({ command: "gh run view" })), undefined);
  assert.deepEqual(watch.record(call({ command: "gh run view" })), { tool: "execute", count: 3, action: "notice" });
  assert.deepEqual(watch.record(call({ command: "gh run view" })), { tool: "execute", count: 4, action: "handback" });
});

test("a changed result, input or tool starts the count again; key order in the input does not", () => {
  const watch = new RepeatWatch(2);
  assert.equal(watch.record(call({ a: 1, b: 2 })), undefined);
  assert.equal(watch.record(call({ a: 1, b: 2 }, "done")), undefined);
  assert.deepEqual(watch.record(call({ b: 2, a: 1 }, "done")), { tool: "execute", count: 2, action: "notice" });
  assert.equal(watch.record(call({ b: 2, a: 1 }, "done", "read")), undefined);
  assert.equal(watch.record(call({ a: 2 }, "done", "read")), undefined);
});
