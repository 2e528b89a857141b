// Throughput of dispatched fake-agent runs that mostly wait (one sleep step), with 1, 2 and 4
// workers (`baton worker`, one run at a time each, folders of their own, a bare remote): runs per
// minute, from the submission of R runs to the end of the last; the 1-worker figure is the baseline.
//   node bench/dispatch/worker-scaling.bench.ts [--quick] [--runs R] [--sleep MS]
// Needs PostgreSQL (BATON_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import { submitRun } from "@baton/engine/dispatch";
import { openStore } from "@baton/engine/store";
import { fixed, sizeArg } from "../measure.ts";
import { benchDatabase, endedRuns, liveWorkerCount, repoWithRemote, startWorker, stopWorkers, until } from "./dispatch-fixtures.ts";

const RUNS = sizeArg("--runs", "BATON_BENCH_RUNS", 8, 4);
const SLEEP_MS = sizeArg("--sleep", "BATON_BENCH_SLEEP", 8_000, 4_000);
const WORKERS = [1, 2, 4];

async function round(workerCount: number): Promise<number> {
  const db = await benchDatabase();
  const { repo, remote, base } = await repoWithRemote();
  const workers = await Promise.all(Array.from({ length: workerCount }, () => startWorker(db.url, ["--concurrency", "1"])));
  try {
    await until(async () => (await liveWorkerCount(db.url)) === workerCount);
    const started = performance.now();
    {
      await using store = await openStore(`${repo}/.baton`, { url: db.url });
      for (let i = 0; i < RUNS; i += 1) {
        await submitRun(store, { task: `wait ${i}`, agent: "fake", remote, base, script: [{ sleep: SLEEP_MS }], options: { timeout: 600_000, requireOutput: "none" } });
      }
    }
    await until(async () => (await endedRuns(db.url)) === RUNS, 200);
    return RUNS / ((performance.now() - started) / 60_000);
  } finally {
    await stopWorkers(workers);
    await db.drop();
  }
}

const perMinute = new Map<number, number>();
for (const count of WORKERS) {
  perMinute.set(count, await round(count));
  process.stdout.write(`${count} worker(s): ${fixed(perMinute.get(count) ?? 0)} runs/min (${RUNS} runs of a ${SLEEP_MS} ms sleep)\n`);
}
const one = perMinute.get(1) ?? 1;
process.stdout.write(`scaling: 2 workers ${fixed((perMinute.get(2) ?? 0) / one)}×, 4 workers ${fixed((perMinute.get(4) ?? 0) / one)}× the 1-worker throughput (aim ≥ 3.5× at 4)\n`);
