import assert from "node:assert/strict";
import { test } from "node:test";
import { numberText } from "./number-text.ts";

test("numbers are written as toLocaleString(\"en-US\") writes them", () => {
  const samples = [0, -0, 1, 12, 123, 1_234, 12_345, 123_456, 1_234_567, -1, -999, -1_000, -1_234_567, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 0.5, 1234.5678, -0.0001, Number.NaN, Infinity];
  for (let i = 1; i < 1e15; i *= 7) samples.push(i, i - 1, -i);
  for (const n of samples) assert.equal(numberText(n), n.toLocaleString("en-US"), String(n));
});
