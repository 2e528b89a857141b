import assert from "node:assert/strict";
import { test } from "node:test";
import { FeedRows } from "./feed-rows.ts";
import { openIndexDb } from "./index-db.ts";

/** A feed of three batches: positions 1-3 (run a), 4 (run b), 5-9 (run a), then a hole, 12-13 (run b). */
function sampleFeed(): FeedRows {
  const db = openIndexDb(":memory:");
  const feed = new FeedRows(db);
  feed.add({ run: "a", seq_first: 1, count: 3, byte_offset: 0, byte_length: 30 });
  feed.add({ run: "b", seq_first: 1, count: 1, byte_offset: 0, byte_length: 10 });
  feed.add({ run: "a", seq_first: 4, count: 5, byte_offset: 30, byte_length: 50 });
  feed.add({ run: "b", seq_first: 2, count: 2, byte_offset: 10, byte_length: 20 }, 2);
  return feed;
}

const firsts = (feed: FeedRows, cursor: number) => feed.after(cursor, 100).map((row) => row.pos_first);

test("a page holds the batches with a position past the cursor: the one the cursor is inside, then the later ones", () => {
  const feed = sampleFeed();
  assert.deepEqual(firsts(feed, 0), [1, 4, 5, 12]);
  assert.deepEqual(firsts(feed, 1), [1, 4, 5, 12], "inside the first batch: it is read again from the cursor on");
  assert.deepEqual(firsts(feed, 6), [5, 12]);
  assert.deepEqual(firsts(feed, 10), [12], "in the hole");
  assert.deepEqual(feed.after(0, 2).map((row) => row.pos_first), [1, 4], "at most `limit` batches");
});

test("a page after the last position of a batch does not hold that batch: a caught-up reader gets an empty page", () => {
  const feed = sampleFeed();
  assert.deepEqual(firsts(feed, 3), [4, 5, 12], "the batch 1-3 ends at the cursor");
  assert.deepEqual(firsts(feed, 4), [5, 12], "the batch 4 ends at the cursor");
  assert.deepEqual(firsts(feed, 9), [12]);
  assert.deepEqual(firsts(feed, 13), [], "at the end of the feed");
  assert.deepEqual(firsts(feed, 20), []);
});
