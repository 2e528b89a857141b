import assert from "node:assert/strict";
import { test } from "node:test";
import pg from "pg";
import { pgStoreUnderTest } from "../contract/testing/stores-under-test.ts";
import { pgStoreStatus } from "./store-status.ts";
import { followRunAndFeed, until } from "./testing/followers.ts";

const repo = { root: "/", dirty: false };
/** How long the other connection keeps its transaction (and its xid) open. */
const HOLD_MS = 5_000;

test("a transaction held open for 5 s holds the feed back (store status names it); its followers then get every event once, in order", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using writerStore = await subject.open({ leaseMs: 30_000 });
  // Its followers poll only once a minute: what the transaction held back must reach them when it ends, not at their next poll.
  await using followerStore = await subject.open({ pollMs: 60_000 });
  const first = await writerStore.createRun({ task: "t", agent: "fake", repo });
  await first.append("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }).durable;

  const { run: runSeen, feed: feedSeen, stop } = followRunAndFeed(followerStore, first.runId);
  await until("the feed follower to see the first run's start", () => feedSeen.length === 2);

  // Another connection takes an xid and keeps its transaction open.
  const holder = new pg.Client({ connectionString: subject.url });
  holder.on("error", () => {});
  await holder.connect();
  t.after(() => holder.end().catch(() => {}));
  await holder.query("BEGIN");
  const held = (await holder.query<{ pid: number }>("SELECT pg_current_xact_id(), pg_backend_pid() AS pid")).rows[0] as { pid: number };
  const heldSince = Date.now();

  // Two runs commit 22 events while it is open.
  const second = await writerStore.createRun({ task: "t2", agent: "fake", repo });
  for (let i = 0; i < 10; i += 1) {
    first.append("log", { level: "info", message: `held ${i}` });
    second.append("log", { level: "info", message: `held ${i}` });
  }
  await Promise.all([first.flush(), second.flush()]);

  // A run's follower is not held back (a run has one writer: its commits are a gapless prefix).
  await until("the first run's follower to see what is committed", () => runSeen.length === 12);
  // Store status names the oldest open transaction of the whole server: another test's may be
  // older for a moment, and short; once it has ended, the holder is the one named.
  let status = await pgStoreStatus(subject.url);
  await until("store status to name the transaction that holds the feed back", async () => (status = await pgStoreStatus(subject.url)).feed.oldest_transaction?.pid === held.pid, HOLD_MS / 2);
  assert.equal(status.feed.unsequenced, 21, "the committed events wait for it (run.created of the second run and 20 logs)");
  assert.equal(status.feed.position, 2, "nothing after it has a position");
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, HOLD_MS - (Date.now() - heldSince))));
  assert.equal(await followerStore.feedPosition(), 2, "the sequencer placed nothing past the open transaction");
  assert.deepEqual(
    feedSeen.map((event) => event.pos),
    [1, 2],
    "the feed's follower was held back, not given later events out of order",
  );

  await holder.query("COMMIT");
  await until("the feed follower to catch up once the transaction ended", () => feedSeen.length === 23);
  first.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 0, duration_ms: 0 });
  second.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 0, duration_ms: 0 });
  await Promise.all([first.close(), second.close()]);
  await until("the runs' ends", () => feedSeen.length === 25 && runSeen.length === 13);
  await stop();

  assert.deepEqual(feedSeen.map((event) => event.pos), Array.from({ length: 25 }, (_, i) => i + 1), "every position once, in order");
  assert.equal(new Set(feedSeen.map((event) => `${event.run}:${event.seq}`)).size, 25, "no event twice");
  for (const writer of [first, second]) {
    const seqs = feedSeen.filter((event) => event.run === writer.runId).map((event) => event.seq);
    assert.deepEqual(seqs, Array.from({ length: seqs.length }, (_, i) => i + 1), `run ${writer.runId}: seqs gapless and in order in the feed`);
  }
  assert.deepEqual(runSeen.map((event) => event.seq), Array.from({ length: 13 }, (_, i) => i + 1));
  // (Not `oldest_transaction === null`: other databases of the same server may have transactions open.)
  const after = await pgStoreStatus(subject.url);
  assert.deepEqual([after.feed.unsequenced, after.feed.position], [0, 25]);
});
