import assert from "node:assert/strict";
import { test } from "node:test";
import { isBatonError } from "../errors.ts";
import { dispatchTimingFrom } from "./dispatch-queue.ts";
import { LABEL_PATTERN, queueFor, runJobSchema } from "./run-job.ts";

test("a label's runs have a queue of their own; labels are words", () => {
  assert.equal(queueFor(undefined), "baton-runs");
  assert.equal(queueFor("gpu"), "baton-runs.gpu");
  assert.ok(LABEL_PATTERN.test("linux-arm_64"));
  for (const bad of ["", "a b", "a/b", "x".repeat(65)]) assert.equal(LABEL_PATTERN.test(bad), false, bad);
});

test("a job's data is checked as it is claimed; options default to none", () => {
  const job = runJobSchema.parse({ run: "run_1", number: 1, task: "t", agent: "fake", remote: "/r.git", base: "abc" });
  assert.deepEqual(job.options, {});
  assert.throws(() => runJobSchema.parse({ run: "run_1", number: 0, task: "t", agent: "fake", remote: "/r.git", base: "abc" }));
});

test("BATON_DISPATCH_HEARTBEAT: whole seconds, at least 10 (pg-boss's floor); the supervisor checks five times a heartbeat", () => {
  assert.deepEqual(dispatchTimingFrom({}), {});
  assert.deepEqual(dispatchTimingFrom({ BATON_DISPATCH_HEARTBEAT: "10" }), { heartbeatSeconds: 10, superviseSeconds: 2, pollSeconds: 1 });
  for (const bad of ["9", "1.5", "soon"]) {
    assert.throws(() => dispatchTimingFrom({ BATON_DISPATCH_HEARTBEAT: bad }), (error) => isBatonError(error) && error.code === "usage" && /at least 10/.test(error.toLine()), bad);
  }
});

test("a workflow run's job carries its workflow: a built-in by name, a file by its text and place", () => {
  const base = { run: "run_1", number: 1, task: "t", agent: "fake", remote: "/r.git", base: "abc" };
  assert.deepEqual(runJobSchema.parse({ ...base, workflow: { ref: "pipeline", name: "pipeline", builtin: "pipeline" } }).workflow, { ref: "pipeline", name: "pipeline", builtin: "pipeline" });
  const file = { ref: "review", name: "Review", source: "digraph Review {}\n", path: ".baton/workflows/review.dot" };
  assert.deepEqual(runJobSchema.parse({ ...base, workflow: file }).workflow, file);
  assert.throws(() => runJobSchema.parse({ ...base, workflow: { ref: "review" } }), "a workflow without its name is not a job's");
});
