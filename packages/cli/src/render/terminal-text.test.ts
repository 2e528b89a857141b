import assert from "node:assert/strict";
import { test } from "node:test";
import { onTerminal, terminalJson, visibleText } from "./terminal-text.ts";

/** Anything a terminal would act on, but newline: what no human output may hold raw. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const HOSTILE = "a\x1b[2J\x1b]0;pwned\x07b\x9b31mc\u202ed\u2066e\x08\x7ff\x00g\u2028h";

test("controls and escape sequences are shown, not acted on: C0, DEL, C1, bidi controls, separators", () => {
  assert.equal(visibleText(HOSTILE), "a\\x1b[2J\\x1b]0;pwned\\x07b\\x9b31mc\\u202ed\\u2066e\\x08\\x7ff\\x00g\\u2028h");
  assert.doesNotMatch(visibleText(HOSTILE), RAW_CONTROL);
  assert.equal(visibleText("plain text, ünïcode ✓ and\ttabs"), "plain text, ünïcode ✓ and\ttabs", "ordinary text is unchanged");
});

test("newlines are shown on one line, kept over lines; a CRLF's CR goes, a lone CR is shown", () => {
  assert.equal(visibleText("one\ntwo\r\nthree\rover"), "one\\ntwo\\r\\nthree\\rover");
  assert.equal(visibleText("one\ntwo\r\nthree\rover\r", { keepNewlines: true }), "one\ntwo\nthree\\rover");
  assert.equal(visibleText("x\x1b[1A\n", { keepNewlines: true }), "x\\x1b[1A\n");
});

test("JSON for a terminal is the same value, with DEL, C1 and bidi controls escaped as JSON escapes too", () => {
  const value = { task: HOSTILE, nested: [HOSTILE] };
  const line = terminalJson(value);
  assert.deepEqual(JSON.parse(line), value, "the same JSON value");
  assert.doesNotMatch(line, RAW_CONTROL);
  assert.doesNotMatch(JSON.stringify(value), /\x1b/, "JSON escapes ESC by itself");
  assert.match(JSON.stringify(value), /\u009b/, "but not C1: that is why terminalJson exists");
  assert.equal(terminalJson({ a: "b" }, 2), '{\n  "a": "b"\n}');
});

test("data output is exact into a pipe and made visible on a terminal", () => {
  assert.equal(onTerminal({ isTTY: false }, HOSTILE), HOSTILE);
  assert.equal(onTerminal({}, HOSTILE), HOSTILE);
  assert.equal(onTerminal({ isTTY: true }, "+\x1b[2J\n"), "+\\x1b[2J\n");
});
