import assert from "node:assert/strict";
import { test } from "node:test";
import { envelopeSchema, eventTypeSchema, PROTOCOL_VERSION, runIdSchema, timestampSchema } from "./envelope.ts";
import { SAMPLE_AT, SAMPLE_RUN_ID } from "./testing/sample-events.ts";

test("a run id is run_ and a 26-character Crockford ULID, which has no I, L, O or U", () => {
  assert.ok(runIdSchema.safeParse(SAMPLE_RUN_ID).success);
  assert.ok(runIdSchema.safeParse("run_00000000000000000000000000").success);
  for (const bad of ["run_01JD7Q2W3E4R5T6Y7U8I9O0P1A", "run_01jd7q2w3e4r5t6y7v8x9z0p1a", "ses_01JD7Q2W3E4R5T6Y7V8X9Z0P1A", "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1", ""]) {
    assert.equal(runIdSchema.safeParse(bad).success, false, bad);
  }
});

test("timestamps are UTC with milliseconds, as Date.prototype.toISOString writes them", () => {
  assert.ok(timestampSchema.safeParse(new Date(0).toISOString()).success);
  for (const bad of ["2026-11-29T10:00:00Z", "2026-11-29T10:00:00.123+01:00", "2026-11-29 10:00:00.123Z"]) {
    assert.equal(timestampSchema.safeParse(bad).success, false, bad);
  }
});

test("types are dot-named and lower case", () => {
  for (const good of ["log", "tool.completed", "stage.sub_step.started"]) assert.ok(eventTypeSchema.safeParse(good).success, good);
  for (const bad of ["Tool.completed", "tool..completed", ".log", "tool.", "tool-completed"]) {
    assert.equal(eventTypeSchema.safeParse(bad).success, false, bad);
  }
});

test("the envelope keeps fields it does not know and takes an event without seq (ephemeral)", () => {
  const event = { v: PROTOCOL_VERSION, run: SAMPLE_RUN_ID, at: SAMPLE_AT, type: "agent.delta", data: {}, pos: 9, number: 3 };
  assert.deepEqual(envelopeSchema.parse(event), event);
});

test("the envelope needs v, run, at, type and an object as data, and a seq from 1", () => {
  const event = { v: 1, run: SAMPLE_RUN_ID, seq: 1, at: SAMPLE_AT, type: "log", data: {} };
  assert.ok(envelopeSchema.safeParse(event).success);
  for (const field of ["v", "run", "at", "type", "data"] as const) {
    const { [field]: _removed, ...rest } = event;
    assert.equal(envelopeSchema.safeParse(rest).success, false, `without ${field}`);
  }
  for (const data of [null, [], "text", 1]) assert.equal(envelopeSchema.safeParse({ ...event, data }).success, false, String(data));
  for (const seq of [0, -1, 1.5, "1"]) assert.equal(envelopeSchema.safeParse({ ...event, seq }).success, false, String(seq));
  assert.equal(envelopeSchema.safeParse({ ...event, v: 0 }).success, false);
});
