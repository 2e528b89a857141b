// `GET /api/overview` (the run list's figures: each listed run's log folded by the server) on
// R finished runs of E events each, in process (hono's app.request, no socket).
//   node bench/serve/overview.bench.ts [--runs R] [--events E] [--rounds N] [--quick]
// Baseline, the same run: reading every event of the same runs through the store (readRun),
// folding nothing: what any view of those figures built from the log must at least do.
// Context: `GET /api/runs` (catalog rows only).
import { openStore } from "@baton/engine/store";
import { createApp } from "@baton/server";
import { fixed, median, quick, sizeArg, whole } from "../measure.ts";
import { finishedRun, scratchBatonDir } from "../store/store-fixtures.ts";

const runs = sizeArg("runs", "BATON_BENCH_RUNS", 50, 20);
const events = sizeArg("events", "BATON_BENCH_EVENTS", 2_000, 500);
const rounds = sizeArg("rounds", "BATON_BENCH_ROUNDS", 7, 3);
const TOKEN = "bench-token-0123456789";

const scratch = await scratchBatonDir();
try {
  const store = await openStore(scratch.batonDir);
  const ids: string[] = [];
  for (let index = 0; index < runs; index += 1) ids.push(await finishedRun(store, events));
  const { app } = createApp({ store, projectRoot: scratch.root, token: TOKEN, cliEntry: "/nonexistent" });
  const get = async (path: string) => {
    const response = await app.request(path, { headers: { authorization: `Bearer ${TOKEN}` } });
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
    return (await response.json()) as { runs: unknown[] };
  };
  const time = async (work: () => Promise<unknown>) => {
    const started = performance.now();
    await work();
    return performance.now() - started;
  };
  const readAll = async () => {
    let count = 0;
    for (const id of ids) for await (const _event of store.readRun(id)) count += 1;
    if (count !== runs * events) throw new Error(`read ${count} events, expected ${runs * events}`);
  };
  const overview = async () => {
    const body = await get(`/api/overview?limit=${Math.min(runs, 200)}`);
    if (body.runs.length !== Math.min(runs, 200)) throw new Error(`overview listed ${body.runs.length} runs`);
  };
  // One warm-up of each side, then the sides alternate.
  await overview();
  await readAll();
  const sides = { overview: [] as number[], reads: [] as number[], list: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    sides.overview.push(await time(overview));
    sides.reads.push(await time(readAll));
    sides.list.push(await time(() => get(`/api/runs?limit=${Math.min(runs, 200)}`)));
  }
  const [o, r, l] = [median(sides.overview), median(sides.reads), median(sides.list)];
  console.log(`GET /api/overview: ${runs} runs × ${whole(events)} events${quick ? " (quick)" : ""}, ${rounds} rounds`);
  console.log(`  overview     ${fixed(o, 1)} ms median (rounds ${sides.overview.map((ms) => fixed(ms, 0)).join(", ")})`);
  console.log(`  reads alone  ${fixed(r, 1)} ms median (rounds ${sides.reads.map((ms) => fixed(ms, 0)).join(", ")})`);
  console.log(`  ratio        ${fixed(o / r)}× the reads; ${fixed((o / (runs * events)) * 1000, 2)} µs an event`);
  console.log(`  GET /api/runs (catalog rows, context): ${fixed(l, 1)} ms median`);
  await store.close();
} finally {
  await scratch.cleanup();
}
