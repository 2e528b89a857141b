import assert from "node:assert/strict";
import { test } from "node:test";
import { isBatonError } from "../../errors.ts";
import { pgStoreUnderTest } from "../contract/testing/stores-under-test.ts";
import { openPgStore } from "./open-pg-store.ts";
import { sql } from "./testing/test-database.ts";

const repo = { root: "/", dirty: false };
const started = { attempt: 1, resumed: false, pid: 4242, host: "h" };
/** A lease no load outlasts: in these tests only the test expires one. */
const HELD_MS = 60_000;

test("a writer whose lease expired and was taken has its next append refused (lease_lost), failure aborted, no stale epoch stored", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  // No heartbeat runs unless the test ticks it, and leases outlast any load: the zombie learns of
  // its lost lease from its append's own fence, never first from a heartbeat.
  t.mock.timers.enable({ apis: ["setInterval"] });
  await using first = await subject.open({ leaseMs: HELD_MS });
  await using second = await subject.open({ leaseMs: HELD_MS });
  const writer = await first.createRun({ task: "t", agent: "fake", repo });
  await writer.append("run.started", started).durable;
  // As if the writer's process had stopped past its lease: expire it, and let another take the run.
  await sql(subject.url, "UPDATE baton_runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [writer.runId]);
  const taker = await second.openWriter(writer.runId);
  const late = writer.append("log", { level: "info", message: "from the zombie" });
  await assert.rejects(late.durable, (error) => isBatonError(error) && error.code === "lease_lost");
  assert.ok(writer.failure.aborted, "the writer's failure signal tells its run to stop");
  assert.throws(() => writer.append("log", { level: "info", message: "again" }), (error) => isBatonError(error) && error.code === "lease_lost");
  await taker.append("log", { level: "info", message: "from the new owner" }).durable;
  await taker.close();
  await writer.close().catch(() => {});
  const rows = await sql(subject.url, "SELECT seq::int AS seq, epoch::int AS epoch FROM baton_events WHERE run_id = $1 ORDER BY seq", [writer.runId]);
  assert.deepEqual(rows.rows, [
    { seq: 1, epoch: 1 },
    { seq: 2, epoch: 1 },
    { seq: 3, epoch: 2 },
  ]);
});

test("a zombie's batch in flight when its heartbeat finds the lease gone is refused (lease_lost), never left waiting", { timeout: 30_000 }, async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  // The heartbeats run when the test ticks them: the zombie's beats only once its batch is in flight.
  t.mock.timers.enable({ apis: ["setInterval"] });
  let hold: (() => Promise<void>) | undefined;
  await using first = await openPgStore(subject.url, subject.batonDir, { leaseMs: HELD_MS, pollMs: 20, beforeCommit: () => hold?.() ?? Promise.resolve() });
  await using second = await subject.open({ leaseMs: HELD_MS });
  const writer = await first.createRun({ task: "t", agent: "fake", repo });
  await writer.append("run.started", started).durable;
  await sql(subject.url, "UPDATE baton_runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [writer.runId]);
  const taker = await second.openWriter(writer.runId);
  // The zombie's next batch is inside its transaction when its heartbeat learns the lease is gone.
  const { promise: inFlight, resolve: entered } = Promise.withResolvers<void>();
  hold = () => {
    entered();
    return new Promise<void>((resolve) => (writer.failure.aborted ? resolve() : writer.failure.addEventListener("abort", () => resolve(), { once: true })));
  };
  const late = writer.append("log", { level: "info", message: "from the zombie" });
  await inFlight;
  assert.equal(writer.failure.aborted, false, "no heartbeat has run yet");
  t.mock.timers.tick(HELD_MS);
  await assert.rejects(late.durable, (error) => isBatonError(error) && error.code === "lease_lost");
  await assert.rejects(writer.flush(), (error) => isBatonError(error) && error.code === "lease_lost");
  await taker.close();
  await writer.close().catch(() => {});
  const rows = await sql(subject.url, "SELECT seq::int AS seq, epoch::int AS epoch FROM baton_events WHERE run_id = $1 ORDER BY seq", [writer.runId]);
  // run.created and run.started: nothing of the zombie's refused batch.
  assert.deepEqual(rows.rows, [
    { seq: 1, epoch: 1 },
    { seq: 2, epoch: 1 },
  ]);
});

test("the heartbeat keeps a lease: a writer idle for several leases still appends", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using store = await subject.open();
  const writer = await store.createRun({ task: "t", agent: "fake", repo });
  await writer.append("run.started", started).durable;
  const until = Date.now() + subject.leaseMs * 3;
  while (Date.now() < until) {
    const lease = await sql(subject.url, "SELECT lease_expires_at > now() AS held FROM baton_runs WHERE id = $1", [writer.runId]);
    assert.equal(lease.rows[0]?.held, true, "the lease never lapses while the writer lives");
    await new Promise((resolve) => setTimeout(resolve, subject.leaseMs / 4));
  }
  await writer.append("log", { level: "info", message: "still mine" }).durable;
  await writer.close();
});

test("a retried batch is a conflict, never a duplicate", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using store = await subject.open();
  const writer = await store.createRun({ task: "t", agent: "fake", repo });
  await writer.append("run.started", started).durable;
  await assert.rejects(sql(subject.url, "INSERT INTO baton_events (run_id, seq, epoch, body) VALUES ($1, 2, 1, '{}')", [writer.runId]), (error: { code?: string }) => error.code === "23505");
  await writer.close();
});
