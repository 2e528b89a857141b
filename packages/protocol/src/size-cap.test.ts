import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_EVENT_LIMIT_BYTES, type Envelope } from "./envelope.ts";
import { isTruncated, serializeCapped } from "./size-cap.ts";
import { SAMPLE_AT, SAMPLE_RUN_ID } from "./testing/sample-events.ts";

function message(text: string, extra: Record<string, unknown> = {}): Envelope {
  return { v: 1, run: SAMPLE_RUN_ID, seq: 42, at: SAMPLE_AT, type: "agent.message", data: { session: "s", turn: 1, text }, ...extra };
}

const byteLength = (text: string) => Buffer.byteLength(text, "utf8");

test("the default cap is 1 MiB", () => {
  assert.equal(DEFAULT_EVENT_LIMIT_BYTES, 1_048_576);
});

test("an event under the cap is serialized byte-identical to JSON.stringify", () => {
  for (const event of [message("hello"), message("é".repeat(400_000)), message("x".repeat(DEFAULT_EVENT_LIMIT_BYTES - 200))]) {
    const line = serializeCapped(event);
    assert.equal(line, JSON.stringify(event));
    assert.ok(byteLength(line) <= DEFAULT_EVENT_LIMIT_BYTES);
    assert.equal(isTruncated(JSON.parse(line) as Envelope), false);
  }
});

test("an event over 1 MiB keeps its envelope and seq, and its data becomes the truncation marker", () => {
  const event = message("x".repeat(DEFAULT_EVENT_LIMIT_BYTES), { pos: 7 });
  const original = JSON.stringify(event);
  const capped = JSON.parse(serializeCapped(event)) as Envelope;
  assert.deepEqual(capped, { ...event, data: { truncated: true, original_bytes: byteLength(original), limit_bytes: 1_048_576 } });
  assert.equal(capped.seq, 42);
  assert.ok(isTruncated(capped));
  assert.equal(event.data["text"], "x".repeat(DEFAULT_EVENT_LIMIT_BYTES), "the input event is not modified");
});

test("the cap counts UTF-8 bytes, not characters", () => {
  // 600,000 two-byte characters: 600,000 UTF-16 units, about 1.2 MB of UTF-8.
  const event = message("é".repeat(600_000));
  const capped = JSON.parse(serializeCapped(event)) as Envelope;
  assert.ok(isTruncated(capped));
  assert.equal(capped.data["original_bytes"], byteLength(JSON.stringify(event)));
});

test("an event of exactly the limit is kept and one byte more is truncated", () => {
  const base = JSON.stringify(message(""));
  const limit = 1000;
  const exact = message("a".repeat(limit - byteLength(base)));
  assert.equal(byteLength(JSON.stringify(exact)), limit);
  assert.equal(serializeCapped(exact, limit), JSON.stringify(exact));
  const over = message("a".repeat(limit - byteLength(base) + 1));
  assert.deepEqual((JSON.parse(serializeCapped(over, limit)) as Envelope).data, { truncated: true, original_bytes: limit + 1, limit_bytes: limit });
});

test("isTruncated needs both the flag and the original size", () => {
  assert.equal(isTruncated(message("a", { data: { truncated: true } })), false);
  assert.equal(isTruncated(message("a", { data: { truncated: "yes", original_bytes: 3 } })), false);
  assert.equal(isTruncated(message("a", { data: { truncated: true, original_bytes: 3, limit_bytes: 2 } })), true);
});
