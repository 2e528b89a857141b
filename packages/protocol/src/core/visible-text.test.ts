import assert from "node:assert/strict";
import { test } from "node:test";
import { visibleText } from "./visible-text.ts";

test("what a terminal would act on is shown as an escape; newlines kept only when asked", () => {
  assert.equal(visibleText("a\x1b[2J\x9b1m\u202eb\nc\r\n"), "a\\x1b[2J\\x9b1m\\u202eb\\nc\\r\\n");
  assert.equal(visibleText("a\x1b[2J\nb\r\n", { keepNewlines: true }), "a\\x1b[2J\nb\n");
  assert.equal(visibleText("ünïcode ✓\ttab"), "ünïcode ✓\ttab");
});
