import assert from "node:assert/strict";
import { test } from "node:test";
import { pgStoreUnderTest } from "../contract/testing/stores-under-test.ts";
import { QUEUED_OWNER } from "./pg-dispatch.ts";
import type { PgStore } from "./pg-store.ts";
import { sql } from "./testing/test-database.ts";

const repo = { root: "/", dirty: false };
/** A lease no load outlasts (a late heartbeat cannot lose it): here only the test expires one. */
const HELD_MS = 60_000;

test("a queued run: listed, never recovered; taken from the queue with epoch 1, held while its worker lives, taken over with a new epoch once its lease expired, not taken once ended", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using first = (await subject.open({ leaseMs: HELD_MS })) as PgStore;
  await using second = (await subject.open({ leaseMs: HELD_MS })) as PgStore;
  const { runId, number } = await first.queueRun({ task: "queued", agent: "fake" });
  assert.deepEqual((await second.listRuns()).map((run) => [run.id, run.number, run.status, run.task]), [[runId, number, "created", "queued"]]);
  assert.equal(await second.recoverIfAbandoned(runId), undefined, "a queued run is no reader's to end");

  const taken = await first.takeDispatchedRun(runId);
  assert.ok("writer" in taken);
  assert.deepEqual(taken.previous, { owner: QUEUED_OWNER, epoch: 0, lastSeq: 0 });
  assert.equal(taken.writer.lease.epoch, 1);
  taken.writer.append("run.created", { task: "queued", agent: "fake", repo });
  await taken.writer.append("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }).durable;
  assert.deepEqual(await second.takeDispatchedRun(runId), { held: first.owner }, "held while its writer heartbeats");

  // As if the first worker had died: its lease runs out. Readers still leave the run alone.
  await sql(subject.url, "UPDATE baton_runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [runId]);
  assert.equal(await second.recoverIfAbandoned(runId), undefined, "a dispatched run's lost worker is a worker's to handle");
  const over = await second.takeDispatchedRun(runId);
  assert.ok("writer" in over);
  assert.deepEqual(over.previous, { owner: first.owner, epoch: 1, lastSeq: 2 });
  assert.equal(over.writer.lease.epoch, 2);
  over.writer.append("run.failed", { error: { code: "worker_lost", message: "lost" } });
  await over.writer.close();
  assert.deepEqual(await first.takeDispatchedRun(runId), { ended: true }, "an ended run is not taken again");
  await taken.writer.close().catch(() => {});
});

test("the worker registry: a worker is listed with the runs whose lease it holds until it stops", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using store = (await subject.open()) as PgStore;
  await store.beatWorker({ labels: ["gpu"], concurrency: 3 });
  const { runId, number } = await store.queueRun({ task: "t", agent: "fake" });
  const taken = await store.takeDispatchedRun(runId);
  assert.ok("writer" in taken);
  const [worker, ...others] = await store.workers();
  assert.equal(others.length, 0);
  assert.deepEqual([worker?.id, worker?.labels, worker?.concurrency, worker?.runs], [store.owner, ["gpu"], 3, [{ id: runId, number, status: "created" }]]);
  await taken.writer.close();
  await store.stopWorker();
  assert.deepEqual(await store.workers(), []);
});
