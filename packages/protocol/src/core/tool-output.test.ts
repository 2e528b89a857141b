import assert from "node:assert/strict";
import { test } from "node:test";
import { outputInEvent } from "./tool-output.ts";

test("a preview as long as the output, with no output file, is the whole output", () => {
  assert.equal(outputInEvent({ output_chars: 5, preview: "hello" }), "hello");
});

test("an output in the trace store, a cut preview, or no output at all is not in the event", () => {
  assert.equal(outputInEvent({ output_chars: 5, preview: "hello", output_file: "outputs/c_1.txt" }), undefined);
  assert.equal(outputInEvent({ output_chars: 900, preview: "x".repeat(200) }), undefined, "a preview of a longer output whose file could not be written");
  assert.equal(outputInEvent({ output_chars: 0 }), undefined);
  assert.equal(outputInEvent({ preview: "hello" }), undefined, "no length to check it against");
});
