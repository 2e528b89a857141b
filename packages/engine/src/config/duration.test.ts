import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_TIMEOUT_MS, TIMER_MAX_MS } from "./bounds.ts";
import { formatDuration, parseDuration } from "./duration.ts";
import { durationSchema } from "./duration-schema.ts";

test("durations read as people write them; a bare number is seconds; anything else is undefined", () => {
  assert.equal(parseDuration("90s"), 90_000);
  assert.equal(parseDuration("30m"), 1_800_000);
  assert.equal(parseDuration("1h30m"), 5_400_000);
  assert.equal(parseDuration("250ms"), 250);
  assert.equal(parseDuration("1.5"), 1_500);
  for (const bad of ["", "soon", "10 minutes", "-5s", "5x", "m5"]) assert.equal(parseDuration(bad), undefined, bad);
  assert.equal(formatDuration(5_400_000), "1h30m");
  assert.equal(formatDuration(45_000), "45s");
  assert.equal(formatDuration(250), "250ms");
  assert.equal(parseDuration(formatDuration(3_723_000)), 3_723_000);
});

test("in config a duration is a string or seconds; a bad one names the value and how to write it", () => {
  const schema = durationSchema({ maxMs: MAX_TIMEOUT_MS });
  assert.equal(schema.parse("2m"), 120_000);
  assert.equal(schema.parse(3), 3_000);
  const bad = schema.safeParse("later");
  assert.equal(bad.success, false);
  assert.match(bad.error?.issues[0]?.message ?? "", /"later" is not a duration; write it like "90s"/);
});

test("a duration in config is at most what a timer can wait: 597h is refused, the longest is read back as written", () => {
  const timeout = durationSchema({ maxMs: MAX_TIMEOUT_MS, positive: true });
  assert.ok(MAX_TIMEOUT_MS + 1 <= TIMER_MAX_MS, "the limit watch's last timer, 1 ms past the timeout, still fits");
  assert.equal(timeout.parse(formatDuration(MAX_TIMEOUT_MS)), MAX_TIMEOUT_MS);
  assert.equal(formatDuration(MAX_TIMEOUT_MS), "596h31m23s");
  for (const long of ["597h", "596h31m24s", 2_200_000]) {
    const refused = timeout.safeParse(long);
    assert.equal(refused.success, false, String(long));
    assert.match(refused.error?.issues[0]?.message ?? "", /is longer than 596h31m23s, the longest Baton's timers can wait/);
  }
  assert.match(timeout.safeParse("0s").error?.issues[0]?.message ?? "", /"0s" is no time at all/);
});
