import assert from "node:assert/strict";
import { test } from "node:test";
import type { SessionOutcome } from "../acp/agent-session.ts";
import { decideRunEnd, type RunEndInput } from "./run-end.ts";

const usage = { input_tokens: 10, output_tokens: 5 };
const base = { usage, turns: 1 };
const end = (outcome: SessionOutcome, rest: Partial<RunEndInput> = {}) => decideRunEnd({ outcome, commit: undefined, durationMs: 1_500, ...rest });

test("a completed turn succeeds, with its commit, cost and durations", () => {
  const result = end({ ...base, kind: "completed", stopReason: "end_turn" }, { commit: { sha: "abc" }, costUsd: 0.25 });
  assert.equal(result.status, "succeeded");
  assert.deepEqual(result.logs, []);
  assert.deepEqual(result.final, { type: "run.completed", data: { status: "succeeded", usage, cost_usd: 0.25, active_ms: 1_500, duration_ms: 1_500, commit: "abc" } });
});

test("a failing stop reason fails the run with its own code", () => {
  for (const [reason, code] of [["max_tokens", "output_truncated"], ["max_turn_requests", "turn_limit"], ["refusal", "refused"]] as const) {
    const result = end({ ...base, kind: "completed", stopReason: reason }, { commit: { sha: "abc" } });
    assert.equal(result.status, "failed");
    assert.equal(result.final.type, "run.failed");
    assert.deepEqual(result.error, { code, message: `the agent ended its turn with stop reason ${reason}` });
  }
});

test("a commit git refused is logged and fails a run that had otherwise completed", () => {
  const error = { code: "commit_failed", message: "git said no" };
  const result = end({ ...base, kind: "completed", stopReason: "end_turn" }, { commit: { error } });
  assert.deepEqual(result.logs, [{ level: "error", ...error }]);
  assert.deepEqual(result.final, { type: "run.failed", data: { error, usage, active_ms: 1_500 } });
});

test("a commit git refused after a stop is logged; the stop stands", () => {
  const result = end({ ...base, kind: "stopped", by: "time", handedBack: true }, { commit: { error: { code: "commit_failed", message: "no" } } });
  assert.equal(result.status, "stopped");
  assert.equal(result.stoppedBy, "time");
  assert.equal(result.logs.length, 1);
  assert.deepEqual(result.final.data, { status: "stopped", stopped_by: "time", handed_back: true, usage, active_ms: 1_500, duration_ms: 1_500 });
});

test("a provider failure with work committed is a stop by the provider; without a commit it fails with the class", () => {
  const failed: SessionOutcome = { ...base, kind: "failed", error: { code: "provider_error", message: "429 too many requests" }, providerError: "rate_limited" };
  const kept = end(failed, { commit: { sha: "abc" } });
  assert.equal(kept.status, "stopped");
  assert.equal(kept.stoppedBy, "provider");
  assert.equal(kept.logs[0]?.code, "provider_stopped");
  assert.deepEqual(kept.final.data, { status: "stopped", stopped_by: "provider", handed_back: false, provider_error: "rate_limited", usage, active_ms: 1_500, duration_ms: 1_500, commit: "abc" });
  const lost = end(failed);
  assert.equal(lost.status, "failed");
  assert.deepEqual(lost.final.data, { error: failed.error, provider_error: "rate_limited", usage, active_ms: 1_500 });
});

test("a failure that is not the provider's fails the run even with a commit", () => {
  const result = end({ ...base, kind: "failed", error: { code: "agent_exited", message: "exit 3" } }, { commit: { sha: "abc" } });
  assert.equal(result.status, "failed");
  assert.deepEqual(result.final.data, { error: { code: "agent_exited", message: "exit 3" }, usage, active_ms: 1_500 });
});

test("a cancel names who cancelled, and why when a reason was given", () => {
  assert.deepEqual(end({ ...base, kind: "cancelled" }).final, { type: "run.cancelled", data: { by: "user" } });
  assert.deepEqual(end({ ...base, kind: "cancelled" }, { cancelledBy: { by: "api", reason: "wrong task" } }).final, { type: "run.cancelled", data: { by: "api", reason: "wrong task" } });
});

test("a stop by the provider after a hand-back fails the run when nothing was committed, and stays a stop with a commit", () => {
  const stopped: SessionOutcome = { ...base, kind: "stopped", by: "provider", providerError: "quota", handedBack: true, error: { code: "provider_error", message: "quota exceeded" } };
  const lost = end(stopped);
  assert.equal(lost.status, "failed");
  assert.deepEqual(lost.final.data, { error: { code: "provider_error", message: "quota exceeded" }, provider_error: "quota", usage, active_ms: 1_500 });
  const kept = end(stopped, { commit: { sha: "abc" } });
  assert.equal(kept.status, "stopped");
  assert.equal(kept.final.data["commit"], "abc");
});

test("a completed run whose validation still fails fails validation_failed; a passing one succeeds", () => {
  const error = { code: "validation_failed", message: "validation still fails after 2 fix rounds: `npm test`" };
  const failedRun = end({ ...base, kind: "completed", stopReason: "end_turn" }, { commit: { sha: "abc" }, validation: { passed: false, error } });
  assert.equal(failedRun.status, "failed");
  assert.deepEqual(failedRun.final, { type: "run.failed", data: { error, usage, active_ms: 1_500 } });
  const passed = end({ ...base, kind: "completed", stopReason: "end_turn" }, { commit: { sha: "abc" }, validation: { passed: true } });
  assert.equal(passed.status, "succeeded");
});

test("validation does not turn a stop or a cancel into validation_failed", () => {
  const validation = { passed: false, error: { code: "validation_failed", message: "x" } };
  assert.equal(end({ ...base, kind: "stopped", by: "time", handedBack: true }, { commit: { sha: "abc" }, validation }).status, "stopped");
  assert.equal(end({ ...base, kind: "cancelled" }, { validation }).status, "cancelled");
});

test("a refused or conflicting delivery fails a run that would succeed, with its own code", () => {
  const error = { code: "merge_conflicted", message: "conflicts in a.txt" };
  const result = end({ ...base, kind: "completed", stopReason: "end_turn" }, { commit: { sha: "abc" }, delivery: { error } });
  assert.equal(result.status, "failed");
  assert.deepEqual(result.error, error);
});
