import assert from "node:assert/strict";
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import type { FeedEnvelope } from "@baton/protocol";
import { openStore } from "../open-store.ts";
import type { Store } from "../store.ts";
import { collect, makeBatonDir, range, spawnFixture } from "../test-fixtures/temp-store.ts";

const started = { attempt: 1, resumed: false, pid: 1, host: "h" };
const repo = { root: "/", dirty: false };

async function deleteIndex(batonDir: string): Promise<void> {
  for (const suffix of ["", "-wal", "-shm"]) await rm(path.join(batonDir, `index.db${suffix}`), { force: true });
}

function byRun(feed: FeedEnvelope[]): Map<string, number[]> {
  const runs = new Map<string, number[]>();
  for (const event of feed) runs.set(event.run, [...(runs.get(event.run) ?? []), event.seq ?? -1]);
  return runs;
}

async function snapshot(store: Store) {
  const runs = (await store.listRuns()).map(({ id, number, status, task, agent, last_seq, committed_bytes }) => ({ id, number, status, task, agent, last_seq, committed_bytes }));
  return { runs, feed: await collect(store.readFeed()) };
}

test("index.db deleted: the next open rebuilds the same runs, numbers, statuses, and a complete feed", async (t) => {
  const batonDir = await makeBatonDir(t);
  let before;
  {
    await using store = await openStore(batonDir);
    const succeeded = await store.createRun({ task: "one", agent: "a", repo });
    succeeded.append("run.started", started);
    succeeded.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
    const paused = await store.createRun({ task: "two", agent: "b", repo });
    paused.append("run.started", started);
    paused.append("run.paused", { reason: "gate" });
    const stopped = await store.createRun({ task: "three", agent: "c", repo });
    stopped.append("run.completed", { status: "stopped", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
    const failed = await store.createRun({ task: "four", agent: "d", repo });
    for (let index = 0; index < 30; index += 1) failed.append("log", { level: "info", message: `m${index}` });
    failed.append("run.failed", { error: { code: "x", message: "y" } });
    for (const writer of [succeeded, paused, stopped, failed]) await writer.close();
    before = await snapshot(store);
  }
  await deleteIndex(batonDir);
  await using rebuilt = await openStore(batonDir);
  const after = await snapshot(rebuilt);
  assert.deepEqual(after.runs, before.runs);
  assert.deepEqual(
    after.runs.map((run) => [run.number, run.status]),
    [
      [1, "succeeded"],
      [2, "paused"],
      [3, "stopped"],
      [4, "failed"],
    ],
  );
  assert.deepEqual(byRun(after.feed), byRun(before.feed));
  assert.deepEqual(after.feed.map((event) => event.pos), range(1, before.feed.length));
  assert.notEqual(rebuilt.feedEpoch, "");
  // The rebuilt store carries on: numbers continue, writers work.
  const next = await rebuilt.createRun();
  assert.equal(next.number, 5);
  await next.close();
});

test("a writer killed between fsync and index commit: the next open indexes what is on disk", async (t) => {
  const batonDir = await makeBatonDir(t);
  const child = spawnFixture(t, "crash-after-fsync.ts", [batonDir, "5", "3"]);
  const runId = (await child.line()).split(" ")[1];
  assert.ok(runId !== undefined);
  await child.exited;
  {
    // What the index says after the crash: 5 events, fewer bytes than the log holds.
    const index = new DatabaseSync(path.join(batonDir, "index.db"), { readOnly: true });
    const lagging = index.prepare("SELECT last_seq, committed_bytes FROM runs WHERE id = ?").get(runId) as { last_seq: number; committed_bytes: number };
    index.close();
    assert.equal(lagging.last_seq, 5);
    assert.ok(lagging.committed_bytes < (await stat(path.join(batonDir, "runs", runId, "events.jsonl"))).size);

    await using peek = await openStore(batonDir, { pollMs: 20 });
    const run = await peek.getRun(runId);
    assert.equal(run?.last_seq, 8);
    assert.equal(run?.committed_bytes, (await stat(peek.eventsPath(runId))).size);
    const feed = await collect(peek.readFeed());
    assert.deepEqual(feed.map((event) => event.seq), range(1, 8));
    // The 3 events indexed late get positions after a hole (see reconcileIndex).
    assert.deepEqual(feed.map((event) => event.pos), [...range(1, 5), ...range(9, 11)]);
    assert.deepEqual((await collect(peek.readRun(runId, { after: 4 }))).map((event) => event.seq), range(5, 8));
    const recovered = await peek.recoverIfAbandoned(runId);
    assert.equal(recovered?.event.seq, 9);
  }
});
