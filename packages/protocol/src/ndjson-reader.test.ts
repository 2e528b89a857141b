import assert from "node:assert/strict";
import { test } from "node:test";
import { LineSplitter, parseEventLine, readNdjson, type ReadItem } from "./ndjson-reader.ts";
import { SAMPLE_AT, SAMPLE_RUN_ID } from "./testing/sample-events.ts";
import { definedFields } from "./core/defined-fields.ts";

const encoder = new TextEncoder();

function line(seq: number, type: string, data: Record<string, unknown>): string {
  return JSON.stringify({ v: 1, run: SAMPLE_RUN_ID, seq, at: SAMPLE_AT, type, data });
}

async function readAll(chunks: Iterable<Uint8Array | string>, file?: string): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  const source = (async function* () {
    yield* chunks;
  })();
  for await (const item of readNdjson(source, definedFields({ file }))) items.push(item);
  return items;
}

const summary = (items: ReadItem[]) => items.map((item) => (item.kind === "event" ? `${item.line}:${item.event.seq}` : `${item.line}:malformed`));

test("an unknown type and unknown fields are kept whole, not failed", () => {
  const text = JSON.stringify({ v: 1, run: SAMPLE_RUN_ID, seq: 4, at: SAMPLE_AT, type: "review.posted", data: { stage: "plan", extra: { a: [1] } }, trace: "t_1" });
  const item = parseEventLine(text, 4);
  assert.equal(item.kind, "event");
  assert.deepEqual(item.kind === "event" && item.event, JSON.parse(text));
});

test("a known type with data of an unexpected shape is still read: the reader checks only the envelope", () => {
  const item = parseEventLine(line(1, "tool.completed", { call: 42, future_field: true }), 1);
  assert.equal(item.kind, "event");
});

test("a malformed line is reported with its file and line number, and reading goes on with the next", async () => {
  const text = [
    line(1, "log", { level: "info", message: "a" }),
    "{not json",
    JSON.stringify({ v: 1, seq: 3, type: "log", data: {} }),
    line(4, "log", { level: "info", message: "d" }),
    "",
  ].join("\n");
  const items = await readAll([text], "runs/r/events.jsonl");
  assert.deepEqual(summary(items), ["1:1", "2:malformed", "3:malformed", "4:4"]);
  const [, notJson, notEnvelope] = items;
  assert.ok(notJson?.kind === "malformed" && notEnvelope?.kind === "malformed");
  assert.equal(notJson.file, "runs/r/events.jsonl");
  assert.match(notJson.error, /^not JSON/);
  assert.equal(notJson.text, "{not json");
  assert.match(notEnvelope.error, /^not an event envelope: run:/);
});

test("a malformed line without a file name has no file field, and long text is cut to 200 characters", () => {
  const item = parseEventLine(`x${"y".repeat(500)}`, 9);
  assert.equal(item.kind, "malformed");
  assert.ok(item.kind === "malformed" && !("file" in item) && item.text.length === 201 && item.line === 9);
});

test("blank lines are skipped but still counted, so line numbers match the file", async () => {
  const text = `\n${line(1, "log", { level: "info", message: "a" })}\n\n   \n${line(2, "log", { level: "info", message: "b" })}\n`;
  assert.deepEqual(summary(await readAll([text])), ["2:1", "5:2"]);
});

test("a last line without a newline is read, with its line number", async () => {
  const text = `${line(1, "log", { level: "info", message: "a" })}\n${line(2, "log", { level: "info", message: "b" })}`;
  assert.deepEqual(summary(await readAll([text])), ["1:1", "2:2"]);
  assert.deepEqual(summary(await readAll([encoder.encode(text)])), ["1:1", "2:2"]);
});

test("a torn last line is reported as malformed, not dropped", async () => {
  const whole = line(1, "log", { level: "info", message: "a" });
  const items = await readAll([`${whole}\n${whole.slice(0, 30)}`], "events.jsonl");
  assert.deepEqual(summary(items), ["1:1", "2:malformed"]);
});

test("lines with CRLF endings are read", async () => {
  const text = `${line(1, "log", { level: "info", message: "a" })}\r\n${line(2, "log", { level: "info", message: "b" })}\r\n`;
  assert.deepEqual(summary(await readAll([text])), ["1:1", "2:2"]);
});

// Multi-byte characters of every UTF-8 length: 2 (é), 3 (☕, —), 4 (🎉).
const unicodeLog = [
  line(1, "agent.message", { session: "s", turn: 1, text: "café ☕ — done 🎉" }),
  line(2, "agent.message", { session: "s", turn: 1, text: "🎉🎉" }),
  line(3, "log", { level: "info", message: "plain" }),
].join("\n") + "\n";

test("a line split across chunks at any byte, even inside a multi-byte character, is read the same", async () => {
  const bytes = encoder.encode(unicodeLog);
  const expected = await readAll([bytes]);
  assert.deepEqual(summary(expected), ["1:1", "2:2", "3:3"]);
  for (let cut = 1; cut < bytes.length; cut += 1) {
    const items = await readAll([bytes.subarray(0, cut), bytes.subarray(cut)]);
    assert.deepEqual(items, expected, `cut at byte ${cut}`);
  }
});

test("a stream of one-byte chunks is read the same as one chunk", async () => {
  const bytes = encoder.encode(unicodeLog);
  const oneByte = Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1));
  const items = await readAll(oneByte);
  assert.deepEqual(items, await readAll([bytes]));
  const text = items[0]?.kind === "event" ? items[0].event.data["text"] : undefined;
  assert.equal(text, "café ☕ — done 🎉");
});

test("LineSplitter holds back an unfinished line and a split character until the rest arrives", () => {
  const splitter = new LineSplitter();
  const snowman = encoder.encode("☕");
  assert.deepEqual(splitter.push(encoder.encode("ab")), []);
  assert.deepEqual(splitter.push(snowman.subarray(0, 1)), []);
  assert.deepEqual(splitter.push(Uint8Array.of(...snowman.subarray(1), 0x0a, 0x63)), ["ab☕"]);
  assert.equal(splitter.end(), "c");
  assert.equal(splitter.end(), undefined);
});

test("an empty stream yields nothing", async () => {
  assert.deepEqual(await readAll([]), []);
  assert.deepEqual(await readAll(["", "\n\n"]), []);
});
