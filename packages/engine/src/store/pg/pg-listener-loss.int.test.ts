import assert from "node:assert/strict";
import { test } from "node:test";
import { pgStoreUnderTest } from "../contract/testing/stores-under-test.ts";
import { followRunAndFeed, until } from "./testing/followers.ts";
import { sql } from "./testing/test-database.ts";

const repo = { root: "/", dirty: false };
/** Far longer than the test waits: followers catch up through the reopened LISTEN connection, not by polling. */
const SLOW_POLL_MS = 120_000;

const listeners = (url: string) => sql(url, "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'");

test("a LISTEN connection killed (pg_terminate_backend): followers of a run and of the feed catch up, nothing lost or repeated", async (t) => {
  const subject = await pgStoreUnderTest(t);
  if (subject === undefined) return;
  await using writerStore = await subject.open();
  await using followerStore = await subject.open({ pollMs: SLOW_POLL_MS });
  const writer = await writerStore.createRun({ task: "t", agent: "fake", repo });
  const { run: runSeen, feed: feedSeen, stop } = followRunAndFeed(followerStore, writer.runId);
  await writer.append("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }).durable;
  await until("the followers to see the first events", () => runSeen.length === 2 && feedSeen.length === 2);
  await until("the follower's LISTEN connection", async () => (await listeners(subject.url)).rows.length > 0);

  const killed = await sql(subject.url, "SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()");
  assert.ok(killed.rows.length >= 1 && killed.rows.every((row: { done: boolean }) => row.done), "the LISTEN connections were terminated");
  // Committed while nobody listens: the notifications are lost.
  for (let i = 0; i < 20; i += 1) writer.append("log", { level: "info", message: `while deaf ${i}` });
  await writer.flush();

  await until("the followers to catch up through the reopened connection", () => runSeen.length === 22 && feedSeen.length === 22);
  assert.ok((await listeners(subject.url)).rows.length >= 1, "the follower listens again");
  writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 0, duration_ms: 0 });
  await writer.close();
  await until("the run's end", () => runSeen.length === 23 && feedSeen.length === 23);
  await stop();
  assert.deepEqual(runSeen.map((event) => event.seq), Array.from({ length: 23 }, (_, i) => i + 1), "every event of the run once, in order");
  assert.deepEqual(feedSeen.map((event) => event.pos), Array.from({ length: 23 }, (_, i) => i + 1), "every feed position once, in order");
});
