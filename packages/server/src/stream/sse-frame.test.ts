import assert from "node:assert/strict";
import { test } from "node:test";
import { eventFrame, FramePacker } from "./sse-frame.ts";

test("the packer writes each frame as eventFrame would, adjacent to the one before until a slab is full; a huge frame gets its own buffer", () => {
  const packer = new FramePacker();
  const json = JSON.stringify({ message: "é".repeat(500) });
  const first = packer.frame(json, 1);
  const second = packer.frame(json, undefined);
  assert.deepEqual(Buffer.from(first), Buffer.from(eventFrame(json, 1)));
  assert.deepEqual(Buffer.from(second), Buffer.from(eventFrame(json, undefined)));
  assert.equal(second.buffer, first.buffer);
  assert.equal(second.byteOffset, first.byteOffset + first.byteLength);
  let last = second;
  for (let seq = 2; last.buffer === first.buffer; seq += 1) last = packer.frame(json, seq);
  assert.equal(last.byteOffset, 0, "a new slab starts with the frame that did not fit");
  const huge = packer.frame(JSON.stringify({ message: "x".repeat(100_000) }), 9);
  assert.notEqual(huge.buffer, last.buffer);
  assert.deepEqual(Buffer.from(packer.frame(json, 10)).toString(), Buffer.from(eventFrame(json, 10)).toString());
});
