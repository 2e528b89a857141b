import assert from "node:assert/strict";
import { test } from "node:test";
import type { FeedEnvelope } from "@baton/protocol";
import { openStore } from "../open-store.ts";
import type { Store } from "../store.ts";
import { collect, makeBatonDir, spawnFixture } from "../test-fixtures/temp-store.ts";

const key = (event: FeedEnvelope) => `${event.pos} ${event.run}:${event.seq}`;

/** Follows the feed from `after` until both runs' final events have passed. */
async function followUntilBothEnd(store: Store, after: number): Promise<FeedEnvelope[]> {
  const controller = new AbortController();
  const events: FeedEnvelope[] = [];
  const ended = new Set<string>();
  for await (const event of store.followFeed({ after, signal: controller.signal })) {
    events.push(event);
    if (event.type === "run.completed") ended.add(event.run);
    if (ended.size === 2) controller.abort();
  }
  return events;
}

test("the feed resumed from every pos, while two processes write, returns exactly the rest", async (t) => {
  const batonDir = await makeBatonDir(t);
  await using store = await openStore(batonDir, { pollMs: 50 });
  const count = 120;
  const writers = [spawnFixture(t, "append-events.ts", [batonDir, String(count), "2"]), spawnFixture(t, "append-events.ts", [batonDir, String(count), "3"])];

  // While both write: a reader that takes one or two events at a time and then resumes from
  // the last pos it got, so it resumes at (nearly) every position of the live feed.
  const resumed: FeedEnvelope[] = [];
  const runsDone = new Set<string>();
  let cursor = 0;
  let round = 0;
  const complete = followUntilBothEnd(store, 0);
  while (runsDone.size < 2) {
    const controller = new AbortController();
    const take = 1 + (round++ % 2);
    let taken = 0;
    for await (const event of store.followFeed({ after: cursor, signal: controller.signal })) {
      resumed.push(event);
      cursor = event.pos;
      if (event.type === "run.completed") runsDone.add(event.run);
      taken += 1;
      if (taken === take || runsDone.size === 2) controller.abort();
    }
  }
  const full = await complete;
  for (const writer of writers) assert.match(await writer.line(), /^run /);
  await Promise.all(writers.map((writer) => writer.exited));

  const total = 2 * (count + 3);
  assert.equal(full.length, total);
  assert.deepEqual(resumed.map(key), full.map(key), "resuming from every pos: no repeat, no loss");
  // Positions only grow; every (run, seq) appears once; each run's events are in seq order.
  for (let index = 1; index < full.length; index += 1) assert.ok(full[index]!.pos > full[index - 1]!.pos);
  assert.equal(new Set(full.map((event) => `${event.run}:${event.seq}`)).size, total);
  for (const run of new Set(full.map((event) => event.run))) {
    const seqs = full.filter((event) => event.run === run).map((event) => event.seq);
    assert.deepEqual(seqs, Array.from({ length: count + 3 }, (_, index) => index + 1));
    const number = (await store.getRun(run))?.number;
    assert.ok(full.filter((event) => event.run === run).every((event) => event.number === number));
  }

  // And once written: from every position (and 0), readFeed returns exactly the rest.
  for (const from of [0, ...full.map((event) => event.pos)]) {
    const rest = await collect(store.readFeed({ after: from }));
    assert.deepEqual(rest.map(key), full.filter((event) => event.pos > from).map(key), `after ${from}`);
  }
});

test("feed events carry pos and number beside the envelope", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const first = await store.createRun();
  const second = await store.createRun();
  await first.append("log", { level: "info", message: "a" }).durable;
  await second.append("log", { level: "info", message: "b" }).durable;
  await first.append("log", { level: "info", message: "c" }).durable;
  const feed = await collect(store.readFeed());
  assert.deepEqual(
    feed.map((event) => [event.pos, event.number, event.seq, event.data["message"]]),
    [
      [1, 1, 1, "a"],
      [2, 2, 1, "b"],
      [3, 1, 2, "c"],
    ],
  );
  await first.close();
  await second.close();
});
