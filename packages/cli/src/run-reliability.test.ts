import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import { SAMPLE_AT, SAMPLE_RUN_ID } from "@baton/protocol/testing";
import { applyReliability, initialReliability } from "./run-reliability.ts";

const ev = (type: string, data: unknown): Envelope => ({ v: 1, run: SAMPLE_RUN_ID, seq: 1, at: SAMPLE_AT, type, data }) as Envelope;

test("the first hand-back request is kept, with only the fields it has", () => {
  const facts = initialReliability();
  applyReliability(facts, ev("handback.requested", { reason: "repeat" }));
  applyReliability(facts, ev("handback.requested", { reason: "limit", limit: "time" }));
  assert.deepEqual(facts.handback, { reason: "repeat" });
});

test("malformed data counts the event and never throws", () => {
  const facts = initialReliability();
  for (const data of [null, 5, { class: 3 }, { handed_back: "yes" }]) {
    for (const type of ["provider.error", "handback.requested", "run.completed", "brand.new"]) applyReliability(facts, ev(type, data));
  }
  assert.equal(facts.provider_errors, 4);
  assert.deepEqual(facts.provider_error_classes, ["other"]);
  assert.deepEqual(facts.handback, { reason: "?" });
  assert.equal(facts.handed_back, undefined);
});
