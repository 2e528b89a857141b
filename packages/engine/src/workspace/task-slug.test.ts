import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_SLUG_CHARS, taskSlug } from "./task-slug.ts";

test("a slug is lower case ascii words joined by single dashes", () => {
  assert.equal(taskSlug("Fix the flaky date test!"), "fix-the-flaky-date-test");
  assert.equal(taskSlug("  Café --- naïve   résumé  "), "cafe-naive-resume");
  assert.equal(taskSlug("src/a.ts: rename `foo` → bar"), "src-a-ts-rename-foo-bar");
});

test("a slug is at most 40 characters and never ends with a dash", () => {
  const slug = taskSlug("Implement the whole new billing pipeline for enterprise customers");
  assert.ok(slug.length <= MAX_SLUG_CHARS);
  assert.equal(slug, "implement-the-whole-new-billing-pipeline");
  assert.equal(taskSlug(`${"a".repeat(39)} b`), "a".repeat(39));
});

test("a task with nothing ascii in it still has a slug", () => {
  assert.equal(taskSlug("修复测试"), "task");
  assert.equal(taskSlug("!!!"), "task");
});
