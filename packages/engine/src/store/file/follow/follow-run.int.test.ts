import assert from "node:assert/strict";
import { test } from "node:test";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import { openStore } from "../open-store.ts";
import type { Store } from "../store.ts";
import { collect, makeBatonDir, range, spawnFixture } from "../test-fixtures/temp-store.ts";

const completed = { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 };

async function seqsOf(source: AsyncIterable<{ seq?: number }>): Promise<number[]> {
  return (await collect(source)).map((event) => event.seq ?? -1);
}

async function finishedRun(store: Store, logEvents: number): Promise<{ runId: string; last: number }> {
  const writer = await store.createRun();
  for (let index = 1; index <= logEvents; index += 1) {
    writer.append("log", { level: "info", message: `m${index}` });
    if (index % 7 === 0) await yieldToLoop(); // several batches
  }
  writer.append("run.completed", completed);
  await writer.close();
  return { runId: writer.runId, last: logEvents + 1 };
}

test("following a finished run from every cursor 0..N gives exactly the rest, then ends", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const { runId, last } = await finishedRun(store, 40);
  for (let after = 0; after <= last; after += 1) {
    assert.deepEqual(await seqsOf(store.followRun(runId, { after })), range(after + 1, last), `after ${after}`);
    assert.deepEqual(await seqsOf(store.readRun(runId, { after })), range(after + 1, last), `read after ${after}`);
  }
});

test("following a live run written in this process, from every cursor", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  writer.append("log", { level: "info", message: "first" });
  await writer.flush();
  const total = 60;
  const cursors = range(0, total);
  const followers = cursors.map((after) => seqsOf(store.followRun(writer.runId, { after })));
  for (let seq = 2; seq < total; seq += 1) {
    writer.append("log", { level: "info", message: `m${seq}` });
    if (seq % 3 === 0) await writer.flush();
  }
  writer.append("run.completed", completed);
  await writer.close();
  const results = await Promise.all(followers);
  for (const [index, after] of cursors.entries()) assert.deepEqual(results[index], range(after + 1, total), `after ${after}`);
});

test("following a live run written by another process, from every cursor", async (t) => {
  const batonDir = await makeBatonDir(t);
  const count = 150;
  const child = spawnFixture(t, "append-events.ts", [batonDir, String(count), "3"]);
  const runId = (await child.line()).split(" ")[1];
  assert.ok(runId !== undefined);
  await using store = await openStore(batonDir);
  const last = count + 3; // run.created, run.started, the log events, run.completed
  const cursors = range(0, last);
  const results = await Promise.all(cursors.map((after) => seqsOf(store.followRun(runId, { after }))));
  for (const [index, after] of cursors.entries()) assert.deepEqual(results[index], range(after + 1, last), `after ${after}`);
  assert.equal(await child.line(), `done ${last}`);
});

test("a follower ends when its signal aborts", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun();
  await writer.append("log", { level: "info", message: "one" }).durable;
  const controller = new AbortController();
  const seen: number[] = [];
  for await (const event of store.followRun(writer.runId, { signal: controller.signal })) {
    seen.push(event.seq ?? -1);
    controller.abort();
  }
  assert.deepEqual(seen, [1]);
  await writer.close();
});

test("a follower of a run whose writer was killed ends with the recovered run.failed", async (t) => {
  const batonDir = await makeBatonDir(t);
  const child = spawnFixture(t, "hold-writer.ts", [batonDir, "new"]);
  const runId = (await child.line()).split(" ")[1];
  assert.ok(runId !== undefined);
  await using store = await openStore(batonDir, { pollMs: 20 });
  const following = collect(store.followRun(runId));
  child.process.kill("SIGKILL");
  const events = await following;
  assert.deepEqual(events.map((event) => event.type), ["run.created", "run.started", "run.failed"]);
});
