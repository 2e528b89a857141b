import assert from "node:assert/strict";
import { test } from "node:test";
import type { Outcome } from "./ast.ts";
import { evaluateCondition } from "./evaluate.ts";
import { parseConditionOrThrow } from "./parse.ts";

const holds = (source: string, context: Record<string, unknown> = {}, outcome: Outcome = "succeeded", preferredLabel?: string) =>
  evaluateCondition(parseConditionOrThrow(source).expr, { outcome, preferredLabel, context });

test("outcome compares with Baton's words and the dialect's aliases", () => {
  assert.equal(holds("outcome=succeeded"), true);
  assert.equal(holds("outcome=success"), true);
  assert.equal(holds("outcome=failed", {}, "failed"), true);
  assert.equal(holds("outcome!=failed", {}, "failed"), false);
  assert.equal(holds("outcome=partial_success", {}, "partially_succeeded"), true);
});

test("preferred_label compares with accelerators stripped and case ignored", () => {
  assert.equal(holds("preferred_label=fix", {}, "succeeded", "[F] Fix"), true);
  assert.equal(holds("preferred_label=Fix", {}, "succeeded", "fix"), true);
  assert.equal(holds("preferred_label=fix", {}, "succeeded", undefined), false);
  assert.equal(holds("preferred_label", {}, "succeeded", "x"), true);
});

test("context values compare as text: numbers, booleans and strings alike", () => {
  const context = { "command.exit_code": 0, tests_passed: true, mode: "fast", count: "3" };
  assert.equal(holds("context.command.exit_code=0", context), true);
  assert.equal(holds("tests_passed=true", context), true);
  assert.equal(holds("context.mode=fast && mode!=slow", context), true);
  assert.equal(holds('context.missing=""', context), true);
});

test("> < >= <= compare numbers, and are false for a value that is not one", () => {
  const context = { score: 81, count: "5", name: "x" };
  assert.equal(holds("context.score > 80", context), true);
  assert.equal(holds("context.score >= 81", context), true);
  assert.equal(holds("context.count < 5", context), false);
  assert.equal(holds("context.count <= 5", context), true);
  assert.equal(holds("context.name > 0", context), false);
  assert.equal(holds("context.absent < 1", context), false);
});

test("contains is a substring test, or membership in a list", () => {
  const context = { log: "3 errors found", files: ["a.ts", "b.ts"] };
  assert.equal(holds("context.log contains error", context), true);
  assert.equal(holds("context.files contains b.ts", context), true);
  assert.equal(holds("context.files contains b", context), false);
});

test("matches tests a regular expression", () => {
  assert.equal(holds("context.version matches ^v2\\.", { version: "v2.1" }), true);
  assert.equal(holds("context.version matches ^v2\\.", { version: "v10" }), false);
});

test("a bare key holds for a present, non-empty value other than false and 0", () => {
  const truthy = { a: "yes", b: 1, c: ["x"], d: { k: 1 } };
  const falsy = { e: "", f: "false", g: "0", h: 0, i: false, j: null, k: [] };
  for (const key of Object.keys(truthy)) assert.equal(holds(key, truthy), true, key);
  for (const key of [...Object.keys(falsy), "absent"]) assert.equal(holds(key, falsy), false, key);
});

test("&& || ! combine, && first", () => {
  const context = { ready: "true", override: "" };
  assert.equal(holds("outcome=failed && context.ready=true || context.override", context), false);
  assert.equal(holds("outcome=succeeded && context.ready=true || context.override", context), true);
  assert.equal(holds("outcome=failed || context.ready=true && !context.override", context), true);
  assert.equal(holds("!outcome=succeeded", context), false);
});

test("a context key named like a prototype property is only a context key", () => {
  assert.equal(holds("constructor"), false);
  assert.equal(holds("context.toString"), false);
});
