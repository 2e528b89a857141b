import assert from "node:assert/strict";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import { openPgStore } from "./open-pg-store.ts";
import { followRunAndFeed, followRunInBackground, until } from "./testing/followers.ts";
import { tcpRelay } from "./testing/tcp-relay.ts";
import { testDatabase } from "./testing/test-database.ts";

const repo = { root: "/", dirty: false };
/** How long the "restarting" server refuses connections. */
const DOWN_MS = 2_000;
/** Longer than the outage: the writer keeps its lease and retries its batch until it is reconnected. */
const LEASE_MS = 10_000;

const log = (message: string) => ["log", { level: "info", message }] as const;

test("PostgreSQL restarted mid-run (every connection dropped, refused for 2 s): the writer continues in order, its followers catch up with nothing lost or repeated", { timeout: 40_000 }, async (t) => {
  const direct = await testDatabase(t);
  if (direct === undefined) return;
  const relay = await tcpRelay(direct);
  t.after(() => relay.close());
  const batonDir = await mkdtemp(path.join(tmpdir(), "baton-pg-restart-"));
  await using writerStore = await openPgStore(relay.url, batonDir, { leaseMs: LEASE_MS, pollMs: 20 });
  await using followerStore = await openPgStore(relay.url, batonDir, { leaseMs: LEASE_MS, pollMs: 20 });
  const writer = await writerStore.createRun({ task: "t", agent: "fake", repo });
  await writer.append("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }).durable;

  const { run: runSeen, feed: feedSeen, stop } = followRunAndFeed(followerStore, writer.runId);
  for (let i = 0; i < 10; i += 1) writer.append(...log(`before ${i}`));
  await writer.flush();
  await until("the followers to see the events before the restart", () => runSeen.length === 12 && feedSeen.length === 12);

  const connectionsBefore = relay.accepted;
  const restarted = relay.restart(DOWN_MS);
  // Appended while the server is away: the batch is retried until it is reachable again.
  for (let i = 0; i < 10; i += 1) writer.append(...log(`during ${i}`));
  const duringOutage = writer.flush();
  await restarted;
  await duringOutage;
  for (let i = 0; i < 10; i += 1) writer.append(...log(`after ${i}`));
  writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 0, duration_ms: 0 });
  await writer.close();
  assert.equal(writer.failure.aborted, false, "the writer did not give up");
  assert.ok(relay.accepted > connectionsBefore, "the stores reconnected");

  await until("the followers to catch up after the restart", () => runSeen.length === 33 && feedSeen.length === 33);
  await stop();
  const seqs = Array.from({ length: 33 }, (_, i) => i + 1);
  assert.deepEqual(runSeen.map((event) => event.seq), seqs, "the run's follower: every event once, in order");
  assert.deepEqual(feedSeen.map((event) => event.pos), seqs, "the feed's follower: every position once, in order");
  assert.deepEqual(feedSeen.map((event) => event.seq), seqs, "the feed has the run's events in seq order");
  const messages = runSeen.filter((event) => event.type === "log").map((event) => (event.data as { message: string }).message);
  assert.deepEqual(messages, ["before", "during", "after"].flatMap((phase) => Array.from({ length: 10 }, (_, i) => `${phase} ${i}`)), "stored in the order appended");
  const stored: number[] = [];
  for await (const event of followerStore.readRun(writer.runId)) stored.push(event.seq ?? 0);
  assert.deepEqual(stored, seqs, "what is stored is the same gapless run");
});

test("PostgreSQL away for longer than the lease: the writer fails its run's writes cleanly (store_write_failed, nothing out of order), the run ends once with run.failed", { timeout: 40_000 }, async (t) => {
  const direct = await testDatabase(t);
  if (direct === undefined) return;
  const relay = await tcpRelay(direct);
  t.after(() => relay.close());
  const batonDir = await mkdtemp(path.join(tmpdir(), "baton-pg-restart-"));
  const shortLease = 1_000;
  const writerStore = await openPgStore(relay.url, batonDir, { leaseMs: shortLease, pollMs: 20 });
  await using followerStore = await openPgStore(relay.url, batonDir, { leaseMs: shortLease, pollMs: 20 });
  const writer = await writerStore.createRun({ task: "t", agent: "fake", repo });
  await writer.append("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }).durable;
  for (let i = 0; i < 5; i += 1) writer.append(...log(`before ${i}`));
  await writer.flush();

  const stop = new AbortController();
  const { seen: runSeen, ended: following } = followRunInBackground(followerStore, writer.runId, stop.signal);
  await until("the follower to see the events before the outage", () => runSeen.length === 7);

  const restarted = relay.restart(3 * shortLease);
  for (let i = 0; i < 5; i += 1) writer.append(...log(`during ${i}`));
  await assert.rejects(writer.flush(), (error: Error & { code?: string }) => error.code === "store_write_failed", "the writer gives up once its lease would have run out");
  assert.ok(writer.failure.aborted, "the run's failure signal tells whoever drives it to stop");
  assert.throws(() => writer.append(...log("after")), (error: Error & { code?: string }) => error.code === "store_write_failed", "nothing more is taken");
  await restarted;
  await assert.rejects(writerStore.close(), (error: Error & { code?: string }) => error.code === "store_write_failed");

  // Its lease ran out: the follower's store recovers the abandoned run once the server is back.
  await until("the run to end", () => runSeen.at(-1)?.type === "run.failed");
  await following;
  stop.abort();
  const stored: Envelope[] = [];
  for await (const event of followerStore.readRun(writer.runId)) stored.push(event);
  assert.deepEqual(stored.map((event) => event.seq), Array.from({ length: stored.length }, (_, i) => i + 1), "the stored run is gapless");
  assert.deepEqual(runSeen.map((event) => event.seq), stored.map((event) => event.seq), "the follower got it all, once, in order");
  assert.equal(stored.filter((event) => event.type === "run.failed" || event.type === "run.completed").length, 1, "one terminal event");
  const messages = stored.filter((event) => event.type === "log").map((event) => (event.data as { message: string }).message);
  assert.ok(["before", "during"].flatMap((phase) => Array.from({ length: 5 }, (_, i) => `${phase} ${i}`)).join().startsWith(messages.join()), `what was stored is a prefix of what was appended, in order: ${messages.join()}`);
  assert.equal((await followerStore.getRun(writer.runId))?.status, "failed");
});
