// Durable events/s into the PostgreSQL store with 1, 4 and 16 concurrent runs, against raw
// batched INSERTs of the same rows (same table, same bodies, one unnest INSERT per 1,000 rows
// per run, each run on a connection of its own): what the store costs over the bare database.
//   node bench/store-postgres/append-throughput.bench.ts [--quick] [--events N]
// Needs PostgreSQL (BATON_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres);
// it makes a database of its own and drops it.
import { randomBytes } from "node:crypto";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { openStore } from "@baton/engine/store";
import { withBenchDatabase } from "./bench-database.ts";
import { fixed, median, quick, sizeArg, whole } from "../measure.ts";

const EVENTS = sizeArg("--events", "BATON_BENCH_EVENTS", 100_000, 20_000);
const ROUNDS = quick ? 1 : 3;
const CONCURRENCY = [1, 4, 16];
const BURST = 100;
const RAW_BATCH = 1_000;

/** A typical event's data (~300 bytes as a line). */
function data(n: number): Record<string, unknown> {
  return { session: "ses_bench", call: `c_${n}`, tool: "run", status: "completed", is_error: false, duration_ms: 12, output_chars: 2048, output_file: `outputs/c_${n}.txt`, title: "npm test -- --reporter dot" };
}

async function storeRound(url: string, batonDir: string, runs: number): Promise<number> {
  await using store = await openStore(batonDir, { url });
  const perRun = Math.floor(EVENTS / runs);
  const writers = await Promise.all(Array.from({ length: runs }, () => store.createRun()));
  const started = performance.now();
  await Promise.all(
    writers.map(async (writer) => {
      for (let n = 1; n <= perRun; n += 1) {
        writer.append("tool.completed", data(n));
        if (n % BURST === 0) await new Promise((resolve) => setImmediate(resolve));
      }
      await writer.flush();
    }),
  );
  const ms = performance.now() - started;
  for (const writer of writers) await writer.close();
  return (perRun * runs) / (ms / 1000);
}

async function rawRound(url: string, runs: number): Promise<number> {
  const perRun = Math.floor(EVENTS / runs);
  const clients = await Promise.all(
    Array.from({ length: runs }, async (_, index) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const run = `run_raw${randomBytes(8).toString("hex")}${index}`;
      await client.query("INSERT INTO baton_runs (id, number) VALUES ($1, nextval('baton_run_numbers'))", [run]);
      return { client, run };
    }),
  );
  const at = new Date().toISOString();
  const started = performance.now();
  await Promise.all(
    clients.map(async ({ client, run }) => {
      for (let from = 1; from <= perRun; from += RAW_BATCH) {
        const seqs: number[] = [];
        const bodies: string[] = [];
        for (let seq = from; seq < Math.min(perRun + 1, from + RAW_BATCH); seq += 1) {
          seqs.push(seq);
          bodies.push(JSON.stringify({ v: 1, run, seq, at, type: "tool.completed", data: data(seq) }));
        }
        await client.query("INSERT INTO baton_events (run_id, seq, epoch, body) SELECT $1, s, 1, b FROM unnest($2::bigint[], $3::text[]) AS t (s, b)", [run, seqs, bodies]);
      }
    }),
  );
  const ms = performance.now() - started;
  await Promise.all(clients.map(({ client }) => client.end()));
  return (perRun * runs) / (ms / 1000);
}

await withBenchDatabase(async (url) => {
  const batonDir = await mkdtemp(path.join(tmpdir(), "baton-bench-pg-"));
  console.log(`durable events/s into PostgreSQL, ${whole(EVENTS)} events per round, ${ROUNDS} round(s), medians`);
  console.log("  baseline: raw batched INSERTs of the same rows into the same table (1,000 rows per INSERT, a connection per run)");
  for (const runs of CONCURRENCY) {
    const store: number[] = [];
    const raw: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      store.push(await storeRound(url, batonDir, runs));
      raw.push(await rawRound(url, runs));
    }
    console.log(`  ${String(runs).padStart(2)} concurrent run(s): store ${whole(median(store)).padStart(8)} events/s   raw ${whole(median(raw)).padStart(8)} events/s   ratio ${fixed(median(store) / median(raw))}   (aim >= 0.5)`);
  }
});
