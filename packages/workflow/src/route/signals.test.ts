import assert from "node:assert/strict";
import { test } from "node:test";
import { extractRoutingSignals } from "./signals.ts";

test("the last JSON object with a signal key is read, in prose or a json fence", () => {
  const text = 'First I thought {"preferred_next_label": "fix"}.\nThen:\n```json\n{\n  "preferred_label": "approve",\n  "suggested_next_ids": ["review"],\n  "context_updates": {"tests_passed": true, "count": 3}\n}\n```\nDone.';
  assert.deepEqual(extractRoutingSignals(text), { preferredLabel: "approve", suggestedNextIds: ["review"], contextUpdates: { tests_passed: true, count: 3 }, problems: [] });
});

test("preferred_next_label and preferred_label both name the preferred label", () => {
  assert.equal(extractRoutingSignals('{"preferred_next_label": "fix"}')?.preferredLabel, "fix");
});

test("objects without a signal key, and braces that are not JSON, are passed over", () => {
  const text = 'Result: {"preferred_label": "ship"}\nfunction f() { return {a: 1}; }\n{"unrelated": true}\n{ not json }';
  assert.deepEqual(extractRoutingSignals(text), { preferredLabel: "ship", problems: [] });
});

test("an object nested in another is part of it, not a candidate of its own", () => {
  const text = '{"preferred_label": "outer", "context_updates": {"outcome": "failed"}}';
  assert.deepEqual(extractRoutingSignals(text), { preferredLabel: "outer", contextUpdates: { outcome: "failed" }, problems: [] });
});

test("braces inside JSON strings do not end the object", () => {
  assert.equal(extractRoutingSignals('{"preferred_label": "a } b {", "x": "\\"}"}')?.preferredLabel, "a } b {");
});

test("outcome is read in Baton's words or the dialect's, and a single suggested id is a list of one", () => {
  assert.deepEqual(extractRoutingSignals('{"outcome": "success", "suggested_next_ids": "fix"}'), { outcome: "succeeded", suggestedNextIds: ["fix"], problems: [] });
});

test("fields of the wrong type are left out and named as problems", () => {
  assert.deepEqual(extractRoutingSignals('{"preferred_label": 3, "suggested_next_ids": [1], "context_updates": [], "outcome": "great"}'), {
    problems: ["preferred_label is not a string", "suggested_next_ids is not a list of stage ids", "context_updates is not an object", 'outcome "great" is not succeeded, failed, partially_succeeded or skipped'],
  });
});

test("no signal object at all: undefined", () => {
  assert.equal(extractRoutingSignals("I fixed it. {\"files\": 2}"), undefined);
  assert.equal(extractRoutingSignals(""), undefined);
  assert.equal(extractRoutingSignals("an unclosed { brace"), undefined);
});
