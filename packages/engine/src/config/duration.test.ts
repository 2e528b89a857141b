import assert from "node:assert/strict";
import { test } from "node:test";
import { durationSchema, formatDuration, parseDuration } from "./duration.ts";

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
  assert.equal(durationSchema.parse("2m"), 120_000);
  assert.equal(durationSchema.parse(3), 3_000);
  const bad = durationSchema.safeParse("later");
  assert.equal(bad.success, false);
  assert.match(bad.error?.issues[0]?.message ?? "", /"later" is not a duration; write it like "90s"/);
});
