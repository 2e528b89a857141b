import assert from "node:assert/strict";
import { appendFile, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { MalformedLine } from "./log-range-reader.ts";
import { openStore } from "../open-store.ts";
import type { Store } from "../store.ts";
import { collect, makeBatonDir, range } from "../test-fixtures/temp-store.ts";

async function runWithEvents(store: Store, count: number): Promise<string> {
  const writer = await store.createRun();
  for (let index = 1; index <= count; index += 1) writer.append("log", { level: "info", message: `m${index}` });
  await writer.close();
  return writer.runId;
}

async function tornFiles(store: Store, runId: string): Promise<string[]> {
  const dir = store.runDir(runId);
  return (await readdir(dir)).filter((name) => name.startsWith("events.jsonl.torn-")).map((name) => path.join(dir, name));
}

test("a torn last line is cut, its bytes are kept in a side file, and seq continues", async (t) => {
  const batonDir = await makeBatonDir(t);
  const malformed: MalformedLine[] = [];
  await using store = await openStore(batonDir, { onMalformed: (line) => malformed.push(line) });
  const runId = await runWithEvents(store, 3);
  const torn = `{"v":1,"run":"${runId}","seq":4,"at":"2026-01-01T00:00:00.000Z","type":"log","da`;
  await appendFile(store.eventsPath(runId), torn);

  const writer = await store.openWriter(runId);
  assert.equal(writer.lastSeq, 3);
  assert.equal(writer.append("log", { level: "info", message: "after the cut" }).seq, 4);
  await writer.close();

  const [side, ...others] = await tornFiles(store, runId);
  assert.equal(others.length, 0);
  assert.equal(await readFile(side!, "utf8"), torn);
  const events = await collect(store.readRun(runId));
  assert.deepEqual(events.map((event) => event.seq), range(1, 4));
  assert.equal(events[3]?.data["message"], "after the cut");
  assert.deepEqual(malformed, []);
});

test("a last complete line that is not an event is cut the same way", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const runId = await runWithEvents(store, 2);
  await appendFile(store.eventsPath(runId), "{not json at all\n");

  const writer = await store.openWriter(runId);
  assert.equal(writer.lastSeq, 2);
  await writer.append("log", { level: "info", message: "next" }).durable;
  await writer.close();

  const [side] = await tornFiles(store, runId);
  assert.equal(await readFile(side!, "utf8"), "{not json at all\n");
  assert.deepEqual((await collect(store.readRun(runId))).map((event) => event.seq), range(1, 3));
});

test("an invalid last complete line followed by a torn one: both are cut, together", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const runId = await runWithEvents(store, 2);
  await appendFile(store.eventsPath(runId), '{"v":1}\n{"v":1,"ru');

  const writer = await store.openWriter(runId);
  assert.equal(writer.lastSeq, 2);
  await writer.close();
  const [side] = await tornFiles(store, runId);
  assert.equal(await readFile(side!, "utf8"), '{"v":1}\n{"v":1,"ru');
  assert.equal((await readFile(store.eventsPath(runId), "utf8")).endsWith("\n"), true);
});

test("a log that ends cleanly is not touched", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const runId = await runWithEvents(store, 2);
  const before = await readFile(store.eventsPath(runId), "utf8");
  const writer = await store.openWriter(runId);
  await writer.close();
  assert.equal(await readFile(store.eventsPath(runId), "utf8"), before);
  assert.deepEqual(await tornFiles(store, runId), []);
});
