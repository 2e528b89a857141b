import assert from "node:assert/strict";
import { test } from "node:test";
import { chunkText } from "./chunk-text.ts";

test("chunks of a few words join back to the text exactly", () => {
  const text = "I'll add a small greet function, a test for it, and then run both to check.\n\nDone.";
  const chunks = chunkText(text);
  assert.equal(chunks.join(""), text);
  assert.ok(chunks.length >= 5, `expected real streaming, got ${chunks.length} chunks`);
  for (const chunk of chunks) assert.ok(chunk.length <= 16, `chunk too long: ${JSON.stringify(chunk)}`);
});

test("a long word is cut at code points, never inside a surrogate pair", () => {
  const text = "x".repeat(20) + "😀".repeat(10) + " end";
  const chunks = chunkText(text, 8);
  assert.equal(chunks.join(""), text);
  for (const chunk of chunks) assert.ok(chunk.isWellFormed(), `broken pair in ${JSON.stringify(chunk)}`);
});

test("short text is one chunk", () => {
  assert.deepEqual(chunkText("hi"), ["hi"]);
  assert.deepEqual(chunkText(""), []);
});
