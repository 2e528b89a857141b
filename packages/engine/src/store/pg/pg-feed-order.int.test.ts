import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import type { FeedEnvelope } from "@baton/protocol/core";
import { openPgStore } from "./open-pg-store.ts";
import { testDatabase } from "./testing/test-database.ts";

const WRITERS = 16;
const RUNS_PER_WRITER = 2;
/** 3,125: the 100,000 events of the full check (82 s at load 17 on the shared 2-core machine); BATON_FEED_EVENTS_PER_RUN=300 for a quick one. */
const EVENTS_PER_RUN = Number(process.env["BATON_FEED_EVENTS_PER_RUN"] ?? 3125);

test("the feed under 16 writer processes with random pre-commit delays: every event exactly once, in pos order, each run's seq gapless", { timeout: 1_200_000 }, async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const batonDir = await mkdtemp(path.join(tmpdir(), "baton-feed-order-"));
  await using store = await openPgStore(url, batonDir, { pollMs: 20 });
  const total = WRITERS * RUNS_PER_WRITER * EVENTS_PER_RUN;
  const stop = new AbortController();
  const seen: FeedEnvelope[] = [];
  const following = (async () => {
    for await (const event of store.followFeed({ signal: stop.signal })) seen.push(event);
  })();
  const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), "testing", "feed-writer.ts");
  const writers = Array.from({ length: WRITERS }, () => {
    const child = spawn(process.execPath, [fixture, url, batonDir, String(RUNS_PER_WRITER), String(EVENTS_PER_RUN), "30"], { stdio: ["ignore", "pipe", "inherit"] });
    t.after(() => child.kill("SIGKILL"));
    return new Promise<number | null>((resolve) => child.once("exit", resolve));
  });
  assert.deepEqual(await Promise.all(writers), Array.from({ length: WRITERS }, () => 0), "every writer finished");
  // Everything is committed: the follower must reach the feed's end. A transaction open anywhere
  // on the server (another test's) holds the feed back for as long as it stays open, so the
  // wait is for the events, bounded so that a lost event fails instead of hanging.
  for (const deadline = Date.now() + 60_000; seen.length < total && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 50));
  stop.abort();
  await following;
  const last = await store.feedPosition();
  assert.equal(last, total, "the feed has every event");
  assert.equal(seen.length, total, "the follower got every event");
  for (let index = 1; index < seen.length; index += 1) assert.equal((seen[index] as FeedEnvelope).pos, (seen[index - 1] as FeedEnvelope).pos + 1, "positions are consecutive");
  assert.equal(new Set(seen.map((event) => `${event.run}:${event.seq}`)).size, total, "no event twice");
  const byRun = new Map<string, number[]>();
  for (const event of seen) byRun.set(event.run, [...(byRun.get(event.run) ?? []), event.seq ?? 0]);
  assert.equal(byRun.size, WRITERS * RUNS_PER_WRITER);
  for (const seqs of byRun.values()) assert.deepEqual(seqs, Array.from({ length: EVENTS_PER_RUN }, (_, index) => index + 1), "each run's events in seq order, none missing");
  // A follower that resumes anywhere gets exactly the rest.
  const from = seen[Math.floor(total / 3)]?.pos ?? 0;
  const rest: number[] = [];
  for await (const event of store.readFeed({ after: from })) rest.push(event.pos);
  assert.deepEqual(rest, seen.filter((event) => event.pos > from).map((event) => event.pos));
});
