import assert from "node:assert/strict";
import { test } from "node:test";
import { EventRing, type RingEntry } from "./ring.ts";
import { FramePacker } from "./sse-frame.ts";

const entry = (cursor: number | undefined, key: number, bytes = 10): RingEntry => ({ cursor, key, frame: new Uint8Array(bytes), final: false });

test("the ring keeps at most maxEntries and maxBytes, evicting the oldest, with absolute indexes", () => {
  const ring = new EventRing(3, 1000);
  for (let seq = 1; seq <= 5; seq += 1) ring.push(entry(seq, seq));
  assert.equal(ring.firstIndex, 2);
  assert.equal(ring.nextIndex, 5);
  assert.equal(ring.at(1), undefined);
  assert.equal(ring.at(2)?.cursor, 3);
  assert.equal(ring.at(4)?.cursor, 5);
  assert.equal(ring.at(5), undefined);
  const small = new EventRing(100, 25);
  const evicted = [small.push(entry(1, 1)), small.push(entry(2, 2)), small.push(entry(3, 3))];
  assert.deepEqual(evicted.map((list) => list.map((e) => e.cursor)), [[], [], [1]]);
  assert.equal(small.bytes, 20);
  const huge = small.push(entry(4, 4, 500));
  assert.deepEqual(huge.map((e) => e.cursor), [2, 3], "a single entry over the byte bound is still kept");
  assert.equal(small.bytes, 500);
});

test("indexAfter finds where a client's cursor continues, ephemeral entries included", () => {
  const ring = new EventRing(10, 10_000);
  // seq 4, a delta after 4, seq 5, two deltas after 5, seq 6
  for (const [cursor, key] of [[4, 4], [undefined, 4.5], [5, 5], [undefined, 5.5], [undefined, 5.5], [6, 6]] as const) ring.push(entry(cursor, key));
  assert.equal(ring.indexAfter(3), 0);
  assert.equal(ring.indexAfter(4), 1, "the delta that follows seq 4");
  assert.equal(ring.indexAfter(5), 3);
  assert.equal(ring.indexAfter(6), 6, "caught up: the next entry to come");
});

test("the ring's array is compacted as it turns over, and indexes stay right", () => {
  const ring = new EventRing(10, 1_000_000);
  for (let seq = 1; seq <= 5000; seq += 1) ring.push(entry(seq, seq));
  assert.equal(ring.firstIndex, 4990);
  assert.equal(ring.at(4990)?.cursor, 4991);
  assert.equal(ring.indexAfter(4995), 4995);
});

test("frames adjacent in one buffer form a span, written as one view of it; a final entry or another buffer ends the span", () => {
  const ring = new EventRing(100, 1_000_000);
  const packer = new FramePacker();
  const frames = [1, 2, 3].map((seq) => packer.frame(JSON.stringify({ seq }), seq));
  frames.forEach((frame, index) => ring.push({ cursor: index + 1, key: index + 1, frame, final: index === 1 }));
  ring.push({ cursor: 4, key: 4, frame: new Uint8Array(10), final: false });
  ring.push({ cursor: 5, key: 5, frame: new Uint8Array(10), final: false });
  assert.deepEqual([0, 1, 2, 3, 4].map((index) => ring.spanEnd(index)), [1, 1, 2, 3, 4], "seq 2 is final; seq 4 and 5 are separate buffers");
  const joined = ring.bytesOf(0, 1);
  assert.equal(joined.buffer, frames[0]?.buffer, "a view of the slab, not a copy");
  assert.equal(Buffer.from(joined).toString(), 'id: 1\ndata: {"seq":1}\n\nid: 2\ndata: {"seq":2}\n\n');
});
