import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { DEFAULT_EVENT_LIMIT_BYTES, type Envelope } from "@baton/protocol";
import { openStore } from "../open-store.ts";
import { collect, makeBatonDir, range, steppingClock } from "../test-fixtures/temp-store.ts";

const repo = { root: "/repo", dirty: false };

test("seq starts at 1, has no gaps, and continues across close and reopen", async (t) => {
  const batonDir = await makeBatonDir(t);
  const now = steppingClock();
  let runId: string;
  {
    await using store = await openStore(batonDir, { now });
    const writer = await store.createRun({ task: "t", agent: "a", repo });
    runId = writer.runId;
    assert.equal(writer.number, 1);
    for (let index = 0; index < 4; index += 1) writer.append("log", { level: "info", message: `first ${index}` });
    assert.equal(writer.lastSeq, 5, "seq is assigned synchronously by append");
    await writer.close();
  }
  {
    await using store = await openStore(batonDir, { now });
    const writer = await store.openWriter(runId);
    assert.equal(writer.lastSeq, 5);
    const next = writer.append("log", { level: "info", message: "after reopen" });
    assert.equal(next.seq, 6);
    await next.durable;
    await writer.close();
    const events = await collect(store.readRun(runId));
    assert.deepEqual(events.map((event) => event.seq), range(1, 6));
    assert.equal((await store.getRun(runId))?.last_seq, 6);
  }
});

test("the envelope carries v, run, seq, at from the clock, type and data; durable serializes away", async (t) => {
  await using store = await openStore(await makeBatonDir(t), { now: () => new Date("2026-05-01T12:00:00.000Z") });
  const writer = await store.createRun();
  const event = writer.append("log", { level: "warn", message: "m" });
  await event.durable;
  assert.deepEqual(JSON.parse(JSON.stringify(event)), {
    v: 1,
    run: writer.runId,
    seq: 1,
    at: "2026-05-01T12:00:00.000Z",
    type: "log",
    data: { level: "warn", message: "m" },
  });
  assert.equal(Object.keys(event).includes("durable"), false);
  await writer.close();
});

test("run numbers are 1, 2, 3 and run.created carries the number", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const numbers: number[] = [];
  for (let index = 0; index < 3; index += 1) {
    const writer = await store.createRun({ task: `task ${index}`, agent: "a", repo });
    numbers.push(writer.number);
    await writer.close();
    const [created] = await collect(store.readRun(writer.runId));
    assert.equal(created?.type, "run.created");
    assert.equal(created?.data["number"], writer.number);
  }
  assert.deepEqual(numbers, [1, 2, 3]);
});

test("after a final event further appends throw, and the run cannot be reopened for writing", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  writer.append("run.cancelled", { by: "test" });
  assert.throws(() => writer.append("log", { level: "info", message: "late" }), { code: "run_ended" });
  await writer.close();
  await assert.rejects(store.openWriter(writer.runId), { code: "run_ended" });
});

test("appending an ephemeral type is a programming error; publishing a durable one too", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  assert.throws(() => writer.append("agent.delta", { session: "s", kind: "text", text: "x" }), TypeError);
  assert.throws(() => writer.publish("log", { level: "info", message: "x" }), TypeError);
  await writer.close();
});

test("ephemeral events reach subscribers at once, without seq, and are never written", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  const seen: Envelope[] = [];
  const unsubscribe = writer.subscribe((event) => seen.push(event));
  writer.publish("agent.delta", { session: "s", kind: "text", text: "hel" });
  assert.equal(seen.length, 1, "delivered synchronously");
  assert.equal(seen[0]?.seq, undefined);
  await writer.append("log", { level: "info", message: "durable" }).durable;
  unsubscribe();
  writer.append("log", { level: "info", message: "unseen" });
  await writer.close();
  assert.deepEqual(seen.map((event) => event.type), ["agent.delta", "log"]);
  const logged = await readFile(store.eventsPath(writer.runId), "utf8");
  assert.equal(logged.includes("agent.delta"), false);
  assert.equal(logged.trim().split("\n").length, 2);
});

test("an ephemeral event published behind uncommitted durable ones is delivered after them, in order", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  const seen: string[] = [];
  writer.subscribe((event) => seen.push(event.seq === undefined ? `~${String(event.data["text"])}` : `${event.seq}`));
  writer.append("log", { level: "info", message: "one" });
  writer.publish("agent.delta", { session: "s", kind: "text", text: "a" });
  writer.append("log", { level: "info", message: "two" });
  writer.publish("agent.delta", { session: "s", kind: "text", text: "b" });
  assert.deepEqual(seen, [], "nothing is delivered before the batch is on disk");
  await writer.flush();
  writer.publish("agent.delta", { session: "s", kind: "text", text: "c" });
  await writer.close();
  assert.deepEqual(seen, ["1", "~a", "2", "~b", "~c"]);
});

test("an event over 1 MiB is stored with its seq and a truncation marker", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  writer.append("log", { level: "info", message: "before" });
  const big = writer.append("agent.message", { session: "s", turn: 1, text: "x".repeat(2 * 1024 * 1024) });
  writer.append("log", { level: "info", message: "after" });
  await writer.close();
  assert.equal(big.seq, 2);
  assert.equal(big.data["truncated"], true);
  const events = await collect(store.readRun(writer.runId));
  assert.deepEqual(events.map((event) => event.seq), [1, 2, 3]);
  assert.equal(events[1]?.type, "agent.message");
  assert.deepEqual(events[1]?.data, { truncated: true, original_bytes: (events[1]?.data["original_bytes"] as number), limit_bytes: DEFAULT_EVENT_LIMIT_BYTES });
  assert.ok((events[1]?.data["original_bytes"] as number) > 2 * 1024 * 1024);
  const lines = (await readFile(store.eventsPath(writer.runId), "utf8")).split("\n");
  assert.ok(lines.every((line) => Buffer.byteLength(line) <= DEFAULT_EVENT_LIMIT_BYTES));
});

test("group commit: events appended in one stretch share a batch and one durable promise", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  const events = range(1, 50).map((index) => writer.append("log", { level: "info", message: `m${index}` }));
  assert.equal(events[0]?.durable, events[49]?.durable);
  await writer.flush();
  assert.equal(writer.committedSeq, 50);
  const feed = await collect(store.readFeed());
  assert.deepEqual(feed.map((event) => event.pos), range(1, 50));
  await writer.close();
});

test("an event inside a stage carries its scope between type and data, in the log and to subscribers; a capped one keeps it", async (t) => {
  await using store = await openStore(await makeBatonDir(t), { now: () => new Date("2026-05-01T12:00:00.000Z"), eventLimitBytes: 4_096 });
  const writer = await store.createRun();
  const seen: Envelope[] = [];
  writer.subscribe((event) => seen.push(event));
  const stage = { id: "plan", visit: 2, branch: "b1" };
  const scoped = writer.append("log", { level: "info", message: "inside" }, stage);
  const big = writer.append("log", { level: "info", message: "x".repeat(10_000) }, stage);
  const plain = writer.append("log", { level: "info", message: "outside" });
  await writer.close();
  const lines = (await readFile(store.eventsPath(writer.runId), "utf8")).trimEnd().split("\n");
  assert.equal(lines[0], JSON.stringify({ v: 1, run: writer.runId, seq: 1, at: "2026-05-01T12:00:00.000Z", type: "log", stage, data: { level: "info", message: "inside" } }));
  assert.deepEqual(Object.keys(JSON.parse(lines[1]!) as object), ["v", "run", "seq", "at", "type", "stage", "data"]);
  assert.equal(JSON.stringify(scoped), lines[0]);
  assert.deepEqual(big.stage, stage);
  assert.equal(big.data["truncated"], true);
  assert.equal(Object.hasOwn(plain, "stage"), false, "an event outside any stage has no stage field");
  const read = await collect(store.readRun(writer.runId));
  assert.deepEqual(read.map((event) => event.stage), [stage, stage, undefined]);
  assert.deepEqual(seen.map((event) => event.stage), [stage, stage, undefined]);
});
