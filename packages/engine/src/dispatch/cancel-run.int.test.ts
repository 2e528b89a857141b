import assert from "node:assert/strict";
import { test } from "node:test";
import { pgStoreUnderTest } from "../store/contract/testing/stores-under-test.ts";
import type { PgStore } from "../store/pg/pg-store.ts";
import { sql } from "../store/pg/testing/test-database.ts";
import { cancelSharedRun } from "./cancel-run.ts";
import { submitRun } from "./submit-run.ts";

const HELD_MS = 60_000;
const TIMING = { heartbeatSeconds: 10 };
const JOB = { task: "wait", agent: "fake", remote: "/nowhere/origin.git", base: "0123456789abcdef0123456789abcdef01234567", base_branch: "main", options: {} };

async function events(store: PgStore, runId: string): Promise<Array<[string, unknown]>> {
  const seen: Array<[string, unknown]> = [];
  for await (const event of store.readRun(runId)) seen.push([event.type, event.data["by"] ?? null]);
  return seen;
}

test("a cancel of a queued run: the request recorded, the run taken from the queue and ended run.cancelled, its job removed; a second cancel finds it ended", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using submitter = (await subject.open({ leaseMs: HELD_MS })) as PgStore;
  await using canceller = (await subject.open({ leaseMs: HELD_MS })) as PgStore;
  const { runId } = await submitRun(submitter, JOB, { timing: TIMING });
  assert.equal(await cancelSharedRun(canceller, runId, { by: "cli", reason: "not needed" }, { timing: TIMING }), "ended");
  assert.deepEqual(await events(canceller, runId), [["run.created", null], ["run.cancelled", "cli"]]);
  assert.equal((await canceller.getRun(runId))?.status, "cancelled");
  const jobs = await sql(subject.url, "SELECT count(*)::int AS n FROM pgboss.job WHERE singleton_key = $1 AND state IN ('created', 'retry', 'active')", [runId]);
  assert.equal(jobs.rows[0]?.n, 0, "its job is gone");
  assert.deepEqual(await submitter.takeDispatchedRun(runId), { ended: true }, "a worker that got the job first finds it ended");
  assert.deepEqual([...(await canceller.cancelRequests([runId]))], [[runId, { by: "cli", reason: "not needed" }]]);
});

test("a cancel of a run a worker holds: only asked; the worker's store hears it at once (NOTIFY) and reads the request; the first request stands", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using worker = (await subject.open({ leaseMs: HELD_MS })) as PgStore;
  await using canceller = (await subject.open({ leaseMs: HELD_MS })) as PgStore;
  const { runId } = await submitRun(worker, JOB, { timing: TIMING });
  const taken = await worker.takeDispatchedRun(runId);
  assert.ok("writer" in taken);
  taken.writer.append("run.created", { task: "wait", agent: "fake", repo: { root: "/", dirty: false } });
  await taken.writer.append("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }).durable;
  const heard = new Promise<string>((resolve) => {
    const off = worker.onCancelRequested((run) => {
      off();
      resolve(run);
    });
  });
  // The LISTEN connection is opened on first use: wait until it is up, so the NOTIFY is not missed (a worker's heartbeat poll would find it anyway).
  while (!(await listening(subject.url))) await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(await worker.cancelRequests([runId]), new Map());
  assert.equal(await cancelSharedRun(canceller, runId, { by: "api" }, { timing: TIMING }), "asked");
  assert.equal(await heard, runId);
  await cancelSharedRun(canceller, runId, { by: "cli", reason: "again" }, { timing: TIMING });
  assert.deepEqual([...(await worker.cancelRequests([runId, "run_other"]))], [[runId, { by: "api" }]]);
  assert.deepEqual(await events(canceller, runId), [["run.created", null], ["run.started", null]], "nothing written by the canceller");
  taken.writer.append("run.cancelled", { by: "api" });
  await taken.writer.close();
});

/** Whether a connection of the store LISTENs on the cancel channel. */
async function listening(url: string): Promise<boolean> {
  const rows = await sql(url, "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN baton_cancel%'");
  return (rows.rows[0]?.n as number) > 0;
}
