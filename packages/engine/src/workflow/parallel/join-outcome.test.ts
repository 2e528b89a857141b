import assert from "node:assert/strict";
import { test } from "node:test";
import { fanInOutcome, joinOutcome, type BranchOutcome, type IntegrationResult } from "./join-outcome.ts";

const ends = (...outcomes: BranchOutcome[]) => outcomes.map((outcome) => ({ outcome }));

test("wait_all: succeeded when every branch did, failed when none did any good, partially between, skipped with none", () => {
  assert.equal(joinOutcome(ends("succeeded", "succeeded"), "wait_all"), "succeeded");
  assert.equal(joinOutcome(ends("succeeded", "failed"), "wait_all"), "partially_succeeded");
  assert.equal(joinOutcome(ends("partially_succeeded", "partially_succeeded"), "wait_all"), "partially_succeeded");
  assert.equal(joinOutcome(ends("failed", "cancelled"), "wait_all"), "failed");
  assert.equal(joinOutcome(ends("succeeded", "cancelled"), "wait_all"), "partially_succeeded", "a cancel the join policy did not ask for counts");
  assert.equal(joinOutcome([], "wait_all"), "skipped");
});

test("first_success: the branches it cancelled do not count against the one that succeeded", () => {
  assert.equal(joinOutcome(ends("cancelled", "succeeded", "cancelled"), "first_success"), "succeeded");
  assert.equal(joinOutcome(ends("failed", "succeeded", "cancelled"), "first_success"), "partially_succeeded");
  assert.equal(joinOutcome(ends("failed", "failed"), "first_success"), "failed");
});

const result = (branch: string, outcome: BranchOutcome, integrated: boolean, conflicted?: string[]): IntegrationResult =>
  conflicted === undefined ? { branch, outcome, integrated } : { branch, outcome, integrated, conflicted_files: conflicted };

test("the fan-in succeeds when every branch succeeded and merged, partially when some merged, fails when none did", () => {
  assert.equal(fanInOutcome([result("a", "succeeded", true), result("b", "succeeded", true)], "wait_all"), "succeeded");
  assert.equal(fanInOutcome([result("a", "succeeded", true), result("b", "succeeded", false, ["x"])], "wait_all"), "partially_succeeded");
  assert.equal(fanInOutcome([result("a", "succeeded", true), result("b", "failed", false)], "wait_all"), "partially_succeeded");
  assert.equal(fanInOutcome([result("a", "partially_succeeded", true)], "wait_all"), "partially_succeeded", "a merged partial success is not a success");
  assert.equal(fanInOutcome([result("a", "succeeded", false, ["x"]), result("b", "failed", false)], "wait_all"), "failed");
  assert.equal(fanInOutcome([], "wait_all"), "skipped");
  assert.equal(fanInOutcome([result("a", "cancelled", false), result("b", "succeeded", true)], "first_success"), "succeeded");
  assert.equal(fanInOutcome([result("a", "cancelled", false), result("b", "succeeded", false, ["x"])], "first_success"), "failed", "a winner that did not merge wins nothing");
});
