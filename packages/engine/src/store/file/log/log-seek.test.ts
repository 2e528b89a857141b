import assert from "node:assert/strict";
import { mkdtemp, open, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { seekAfterSeq } from "./log-seek.ts";

test("seekAfterSeq lands within one scan window of the target, without scanning the file", async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "baton-seek-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, "events.jsonl");
  const count = 20_000;
  const starts: number[] = [];
  const lines: string[] = [];
  let size = 0;
  for (let seq = 1; seq <= count; seq += 1) {
    starts.push(size);
    const line = `${JSON.stringify({ v: 1, run: "run_x", seq, at: "t", type: "log", data: { message: "m".repeat(seq % 50) } })}\n`;
    lines.push(line);
    size += line.length; // ASCII: characters are bytes
  }
  const text = lines.join("");
  await writeFile(file, text);
  await using handle = await open(file, "r");
  for (const after of [0, 1, 17, 9_999, count - 10, count - 1, count, count + 5]) {
    const offset = await seekAfterSeq(handle, after, size);
    const target = after >= count ? size : starts[after]!;
    assert.ok(offset <= target, `after ${after}: ${offset} is past the target ${target}`);
    assert.ok(target - offset <= 64 * 1024, `after ${after}: ${offset} is too far before ${target}`);
    // Offsets are line starts.
    assert.ok(offset === 0 || text[offset - 1] === "\n");
  }
});

test("seekAfterSeq never skips an event when a probe lands on a malformed line", async (t) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), "baton-seek-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = path.join(dir, "events.jsonl");
  const lines: string[] = [];
  for (let seq = 1; seq <= 5_000; seq += 1) {
    lines.push(seq % 10 === 0 ? "not json ".repeat(20) : JSON.stringify({ v: 1, seq, data: { pad: "p".repeat(40) } }));
  }
  const text = `${lines.join("\n")}\n`;
  await writeFile(file, text);
  await using handle = await open(file, "r");
  for (let after = 0; after <= 5_000; after += 499) {
    const offset = await seekAfterSeq(handle, after, Buffer.byteLength(text));
    const firstAfter = text.slice(offset).split("\n").find((entry) => entry.startsWith("{"));
    const seq = firstAfter === undefined ? Infinity : (JSON.parse(firstAfter) as { seq: number }).seq;
    assert.ok(seq <= after + 1, `after ${after}: the first line read has seq ${seq}`);
  }
});
