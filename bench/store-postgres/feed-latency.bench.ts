// Feed delivery latency over PostgreSQL: a writer appends events to a run at a steady rate
// while a follower of the cross-run feed, on connections of its own (another store, as another
// machine's `baton serve` would be), receives them. Latency: the writer's append call to the
// follower's receipt of that event with its feed position, p50 and p99 (one process, one clock).
// Baseline, same run and rate: the floor of any committed row reaching another connection —
// a raw INSERT that sends pg_notify in the same transaction, and a LISTEN client on another
// connection timing the notification's arrival.
//   node bench/store-postgres/feed-latency.bench.ts [--quick] [--events N] [--rate R]
// Needs PostgreSQL (BATON_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres);
// it makes a database of its own and drops it. Aim: store p99 <= 100 ms on this machine.
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openStore } from "@baton/engine/store";
import { withBenchDatabase } from "./bench-database.ts";
import { fixed, percentile, quick, sizeArg, whole } from "../measure.ts";

const EVENTS = sizeArg("--events", "BATON_BENCH_EVENTS", 5_000, 1_000);
const RATE = sizeArg("--rate", "BATON_BENCH_RATE", 500, 500);
const ROUNDS = quick ? 1 : 3;
const AIM_P99_MS = 100;

/** Calls `send(n)` for n = 1..count at `rate` per second (catching up when a tick comes late). */
async function paced(count: number, rate: number, send: (n: number) => void): Promise<void> {
  const started = performance.now();
  let sent = 0;
  while (sent < count) {
    const due = Math.min(count, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
    while (sent < due) send(++sent);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/** Resolves once `done()` says so, checking every few milliseconds; fails after `ms`. */
async function until(done: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

type Latencies = { ms: Float64Array; received: number };

async function storeRound(url: string, batonDir: string): Promise<Latencies> {
  await using writerStore = await openStore(batonDir, { url });
  await using followerStore = await openStore(batonDir, { url });
  const writer = await writerStore.createRun({ task: "feed latency", agent: "fake", repo: { root: "/", dirty: false } });
  await writer.flush();
  const from = await followerStore.feedPosition();
  const sentAt = new Float64Array(EVENTS + 2);
  const latency = new Float64Array(EVENTS);
  let received = 0;
  const stop = new AbortController();
  const following = (async () => {
    for await (const event of followerStore.followFeed({ after: from, signal: stop.signal })) {
      const n = Number((event.data as { message?: string }).message);
      if (event.run !== writer.runId || !Number.isInteger(n)) continue;
      latency[n - 1] = performance.now() - (sentAt[n] ?? 0);
      received += 1;
    }
  })();
  await paced(EVENTS, RATE, (n) => {
    sentAt[n] = performance.now();
    writer.append("log", { level: "info", message: String(n) });
  });
  await writer.flush();
  await until(() => received === EVENTS, 60_000, "the feed follower to receive every event");
  stop.abort();
  await following;
  await writer.close();
  return { ms: latency, received };
}

async function rawRound(url: string): Promise<Latencies> {
  const writer = new pg.Client({ connectionString: url });
  const listener = new pg.Client({ connectionString: url });
  await Promise.all([writer.connect(), listener.connect()]);
  const sentAt = new Float64Array(EVENTS + 2);
  const latency = new Float64Array(EVENTS);
  let received = 0;
  listener.on("notification", (message) => {
    const n = Number(message.payload);
    latency[n - 1] = performance.now() - (sentAt[n] ?? 0);
    received += 1;
  });
  await listener.query("LISTEN bench_feed");
  const channel = `run_raw${randomBytes(6).toString("hex")}`;
  await writer.query("INSERT INTO baton_runs (id, number) VALUES ($1, nextval('baton_run_numbers'))", [channel]);
  // One statement at a time on the writer's connection, each sent as soon as the one before ends.
  let last: Promise<unknown> = Promise.resolve();
  await paced(EVENTS, RATE, (n) => {
    sentAt[n] = performance.now();
    const body = JSON.stringify({ v: 1, run: channel, seq: n, at: new Date().toISOString(), type: "log", data: { level: "info", message: String(n) } });
    last = last.then(() => writer.query("WITH ins AS (INSERT INTO baton_events (run_id, seq, epoch, body) VALUES ($1, $2, 1, $3) RETURNING seq) SELECT pg_notify('bench_feed', seq::text) FROM ins", [channel, n, body]));
  });
  await last;
  await until(() => received === EVENTS, 60_000, "the LISTEN client to receive every notification");
  await Promise.all([writer.end(), listener.end()]);
  return { ms: latency, received };
}

const sorted = (values: Float64Array) => Float64Array.from(values).sort();

await withBenchDatabase(async (url) => {
  const batonDir = await mkdtemp(path.join(tmpdir(), "baton-bench-pg-feed-"));
  console.log(`PostgreSQL feed delivery latency: ${whole(EVENTS)} events at ${whole(RATE)}/s per round, ${ROUNDS} round(s), the sides alternating`);
  console.log("  store: append -> a follower of the cross-run feed on another store (its own connections)");
  console.log("  baseline: a raw INSERT sending pg_notify in its transaction -> a LISTEN client on another connection");
  const store: number[] = [];
  const raw: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    store.push(...(await storeRound(url, batonDir)).ms);
    raw.push(...(await rawRound(url)).ms);
  }
  const s = sorted(Float64Array.from(store));
  const r = sorted(Float64Array.from(raw));
  const row = (label: string, values: Float64Array) => `  ${label.padEnd(9)} p50 ${fixed(percentile(values, 0.5)).padStart(7)} ms   p99 ${fixed(percentile(values, 0.99)).padStart(7)} ms   max ${fixed(values.at(-1) ?? 0).padStart(8)} ms`;
  console.log(row("store", s));
  console.log(row("baseline", r));
  console.log(`  ratio store/baseline: p50 ${fixed(percentile(s, 0.5) / percentile(r, 0.5))}, p99 ${fixed(percentile(s, 0.99) / percentile(r, 0.99))}   (aim: store p99 <= ${AIM_P99_MS} ms)`);
});
