// Time from a worker's death (kill -9) to its run continuing on another worker (`worker.lost`
// stored) and to the run's end, with the default lease (30 s) and heartbeat (30 s); the lease is
// the baseline: no takeover can come before it expires. --quick: a 3 s lease, the 10 s heartbeat.
//   node bench/dispatch/worker-takeover.bench.ts [--quick] [--rounds N]
// Needs PostgreSQL (BATON_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import type { ChildProcess } from "node:child_process";
import { submitRun } from "@baton/engine/dispatch";
import { openStore } from "@baton/engine/store";
import { fixed, median, quick, sizeArg } from "../measure.ts";
import { benchDatabase, liveWorkerCount, query, repoWithRemote, startWorker, stopWorkers, until } from "./dispatch-fixtures.ts";

const ROUNDS = sizeArg("--rounds", "BATON_BENCH_ROUNDS", 1, 1);
const LEASE_MS = quick ? 3_000 : 30_000;
const ENV: Record<string, string> = quick ? { BATON_DISPATCH_HEARTBEAT: "10" } : {};

async function round(): Promise<{ lostMs: number; endMs: number }> {
  const db = await benchDatabase();
  const { repo, remote, base } = await repoWithRemote();
  const lease = ["--lease", `${LEASE_MS / 1000}s`];
  const workers: ChildProcess[] = await Promise.all([startWorker(db.url, lease, ENV), startWorker(db.url, lease, ENV)]);
  try {
    await until(async () => (await liveWorkerCount(db.url)) === 2);
    let runId = "";
    {
      await using store = await openStore(`${repo}/.baton`, { url: db.url });
      runId = (await submitRun(store, { task: "long", agent: "fake", remote, base, script: [{ say: "working" }, { sleep: 600_000 }], options: { timeout: 900_000, requireOutput: "none" } }, { timing: quick ? { heartbeatSeconds: 10 } : {} })).runId;
    }
    await until(async () => (await query(db.url, "SELECT 1 FROM baton_events WHERE run_id = $1 AND (body::json)->>'type' = 'turn.started'", [runId])).length > 0);
    const owner = (await query<{ lease_owner: string }>(db.url, "SELECT lease_owner FROM baton_runs WHERE id = $1", [runId]))[0]?.lease_owner ?? "";
    const pid = Number(owner.split(":")[1]);
    const victim = workers.find((child) => child.pid === pid);
    if (victim === undefined) throw new Error(`no worker process holds the run (owner ${owner})`);
    victim.kill("SIGKILL");
    const killed = performance.now();
    let lostMs = 0;
    let endMs = 0;
    // One query a poll: worker.lost and the run's end usually commit together.
    await until(async () => {
      const seen = await query<{ lost: boolean; ended: boolean }>(
        db.url,
        "SELECT EXISTS (SELECT 1 FROM baton_events WHERE run_id = $1 AND (body::json)->>'type' = 'worker.lost') AS lost, EXISTS (SELECT 1 FROM baton_runs WHERE id = $1 AND status = 'failed') AS ended",
        [runId],
      );
      const at = performance.now() - killed;
      if (lostMs === 0 && seen[0]?.lost === true) lostMs = at;
      if (seen[0]?.ended === true) endMs = at;
      return endMs > 0;
    });
    if (lostMs === 0) throw new Error("the run ended without worker.lost");
    return { lostMs, endMs };
  } finally {
    await stopWorkers(workers);
    await db.drop();
  }
}

const rounds: Array<{ lostMs: number; endMs: number }> = [];
for (let i = 0; i < ROUNDS; i += 1) rounds.push(await round());
const lost = median(rounds.map((r) => r.lostMs));
process.stdout.write(
  `death to worker.lost on another worker: ${fixed(lost / 1000)} s (rounds ${rounds.map((r) => fixed(r.lostMs / 1000)).join(", ")}); to the run's end: ${fixed(median(rounds.map((r) => r.endMs)) / 1000)} s; lease ${LEASE_MS / 1000} s (${fixed(lost / LEASE_MS)}× the lease; aim ≤ 60 s)\n`,
);
