import assert from "node:assert/strict";
import { test } from "node:test";
import { decideRetry, DEFAULT_RETRY_SCHEDULE } from "./retry-policy.ts";

const noJitter = () => 0;
const fullJitter = () => 1;

test("rate_limited and unreachable: resent after 10, 20 and 40 s plus up to a quarter of jitter, then not again", () => {
  for (const errorClass of ["rate_limited", "unreachable"] as const) {
    const waits = [1, 2, 3].map((attempt) => decideRetry(DEFAULT_RETRY_SCHEDULE, errorClass, attempt, undefined, noJitter));
    assert.deepEqual(waits.map((w) => (w.resend ? w.delayMs : -1)), [10_000, 20_000, 40_000]);
    const jittered = decideRetry(DEFAULT_RETRY_SCHEDULE, errorClass, 3, undefined, fullJitter);
    assert.equal(jittered.resend && jittered.delayMs, 50_000);
    const fourth = decideRetry(DEFAULT_RETRY_SCHEDULE, errorClass, 4, undefined, noJitter);
    assert.equal(fourth.resend, false);
  }
});

test("overloaded: six resends, the waits growing to a minute", () => {
  const waits = [1, 2, 3, 4, 5, 6].map((attempt) => decideRetry(DEFAULT_RETRY_SCHEDULE, "overloaded", attempt, undefined, noJitter));
  assert.deepEqual(waits.map((w) => (w.resend ? w.delayMs : -1)), [10_000, 20_000, 30_000, 40_000, 50_000, 60_000]);
  assert.ok(waits.every((w) => w.resend && w.maxAttempts === 6));
  assert.equal(decideRetry(DEFAULT_RETRY_SCHEDULE, "overloaded", 7, undefined).resend, false);
});

test("a provider's retry-after replaces the wait, without jitter; more than two minutes is not waited for", () => {
  const asked = decideRetry(DEFAULT_RETRY_SCHEDULE, "rate_limited", 1, 30_000, fullJitter);
  assert.deepEqual(asked, { resend: true, delayMs: 30_000, attempt: 1, maxAttempts: 3 });
  const tooLong = decideRetry(DEFAULT_RETRY_SCHEDULE, "rate_limited", 1, 121_000);
  assert.equal(tooLong.resend, false);
  assert.match(tooLong.resend ? "" : tooLong.why, /121 s, more than 120 s/);
});

test("quota, unauthorized and other are never resent", () => {
  for (const errorClass of ["quota", "unauthorized", "other"] as const) {
    const decision = decideRetry(DEFAULT_RETRY_SCHEDULE, errorClass, 1, 1_000);
    assert.equal(decision.resend, false, errorClass);
  }
});
