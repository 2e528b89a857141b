import assert from "node:assert/strict";
import { test } from "node:test";
import { CompactionWatch } from "./compaction-watch.ts";

test("a context reading below half of the last one is an inferred compaction", () => {
  const watch = new CompactionWatch();
  assert.equal(watch.reading(80_000), undefined);
  assert.equal(watch.reading(150_000), undefined);
  assert.deepEqual(watch.reading(60_000), { inferred: true, context_before: 150_000, context_after: 60_000 });
  assert.equal(watch.reading(40_000), undefined, "compared with the reading after the compaction: 40,000 is not below 30,000");
});

test("a drop to half or more, or from a small context, is not a compaction", () => {
  const watch = new CompactionWatch();
  watch.reading(100_000);
  assert.equal(watch.reading(50_000), undefined);
  const small = new CompactionWatch();
  small.reading(9_000);
  assert.equal(small.reading(10), undefined);
});
