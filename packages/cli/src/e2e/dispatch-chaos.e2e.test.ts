import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { test } from "node:test";
import { submitRun } from "@baton/engine/dispatch";
import { openStore } from "@baton/engine/store";
import { sql, testDatabase } from "@baton/engine/store/postgres-testing";
import { testTempDir } from "@baton/protocol/testing";
import { BATON_BIN, git, waitFor } from "./cli-harness.ts";
import { exportStoredLogs, repoWithRemote, storeEnv } from "./dispatch-harness.ts";
import { killProcessesNaming } from "./process-probe.ts";

const RUNS = 30;
const WORKERS = 3;
/** kill -9 of a random worker this often, for this long; each is started again at once. */
const KILL_EVERY_MS = 3_000;
const KILLING_FOR_MS = 24_000;
const FAST = { BATON_DISPATCH_HEARTBEAT: "10" };

const FINAL = ["run.completed", "run.failed", "run.cancelled"];

/** Every third run is a workflow run: three agent stages, each writing a file and taking a while, a checkpoint after each. */
const WORKFLOW_EVERY = 3;
const STAGES = ["draft", "refine", "finish"] as const;
const WORKFLOW = `digraph chaos {
  start [shape=Mdiamond]
  exit [shape=Msquare]
${STAGES.map((stage) => `  ${stage} [prompt="Do the ${stage} stage"]`).join("\n")}
  start -> ${STAGES.join(" -> ")} -> exit
}
`;
const stageScripts = (i: number) => ({ stages: Object.fromEntries(STAGES.map((stage) => [stage, [{ write: { path: `${stage}.txt`, content: `run ${i}, ${stage}\n` } }, { sleep: 900 }, { say: `${stage} done` }]])) });

type Row = { seq: number; epoch: number; type: string; error: string | null; stage: string | null; visit: number | null; next: string | null; resumed: boolean | null };

test("chaos: 3 workers in folders of their own, sharing only a bare remote, 30 runs (a third of them workflow runs), kill -9 of a worker every few seconds: every attempt ends exactly once, no stored event of a stale epoch, workflow runs continue from their checkpoints elsewhere", { timeout: 150_000 }, async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo, remote } = await repoWithRemote("cli-dispatch-chaos-");
  const base = (await git(repo, "rev-parse", "HEAD")).trim();
  {
    await using store = await openStore(`${repo}/.baton`, { url });
    for (let i = 0; i < RUNS; i += 1) {
      const job =
        i % WORKFLOW_EVERY === 0
          ? { task: `chaos workflow ${i}`, script: stageScripts(i), workflow: { ref: "chaos.dot", name: "chaos", source: WORKFLOW, file_name: "chaos.dot" } }
          : { task: `chaos ${i}`, script: [{ say: `run ${i}` }, { sleep: 1_000 }] };
      await submitRun(store, { ...job, agent: "fake", remote, base, base_branch: "main", options: { timeout: 300_000, requireOutput: "none" } }, { timing: { heartbeatSeconds: 10 } });
    }
  }

  const folders = await Promise.all(Array.from({ length: WORKERS }, (_, i) => testTempDir(`cli-dispatch-chaos-w${i}-`)));
  const workers: ChildProcess[] = [];
  const logs: string[] = folders.map(() => "");
  const start = (i: number) => {
    const child = spawn(process.execPath, [BATON_BIN, "worker", "--concurrency", "4", "--lease", "3s"], { cwd: folders[i], env: storeEnv(url, FAST), stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.setEncoding("utf8").on("data", (text: string) => (logs[i] += text));
    child.stderr?.setEncoding("utf8").on("data", (text: string) => (logs[i] += text));
    workers[i] = child;
  };
  t.after(() => {
    for (const child of workers) if (child.exitCode === null) child.kill("SIGKILL");
    for (const folder of folders) killProcessesNaming(folder);
  });
  for (let i = 0; i < WORKERS; i += 1) start(i);

  // Ended, and held by no live writer: a workflow run whose lost attempt just ended goes on under the lease of the worker that took it over.
  const ended = async () => (await sql(url, `SELECT count(*)::int AS n FROM baton_runs WHERE status IN ('succeeded', 'stopped', 'failed', 'cancelled') AND (lease_owner IS NULL OR lease_expires_at <= now())`)).rows[0]?.n as number;
  // A worker in the middle of a workflow run past its first checkpoint is killed first: its run must go on elsewhere.
  const midWorkflow = async () =>
    (await sql(url, `SELECT DISTINCT r.lease_owner AS owner FROM baton_runs r WHERE r.status = 'running' AND r.lease_expires_at > now() AND EXISTS (SELECT 1 FROM baton_events e WHERE e.run_id = r.id AND (e.body::json)->>'type' = 'checkpoint.saved')`)).rows.map((row) => String(row.owner));
  let kills = 0;
  const killingUntil = Date.now() + KILLING_FOR_MS;
  while (Date.now() < killingUntil && (await ended()) < RUNS) {
    await new Promise((resolve) => setTimeout(resolve, KILL_EVERY_MS));
    const holders = await midWorkflow();
    const holding = workers.findIndex((child) => holders.some((owner) => owner.split(":")[1] === String(child.pid)));
    const i = kills % 2 === 0 && holding >= 0 ? holding : Math.floor(Math.random() * WORKERS);
    const victim = workers[i] as ChildProcess;
    victim.kill("SIGKILL");
    await new Promise((resolve) => (victim.exitCode !== null || victim.signalCode !== null ? resolve(undefined) : victim.once("exit", resolve)));
    kills += 1;
    start(i);
  }
  assert.ok(kills >= 3, `${kills} workers were killed`);
  await waitFor("every run to end", async () => (await ended()) === RUNS, 100_000).catch(async (error: unknown) => {
    const open = await sql(url, `SELECT number, status, lease_owner, lease_expires_at > now() AS held FROM baton_runs WHERE NOT (status IN ('succeeded', 'stopped', 'failed', 'cancelled') AND (lease_owner IS NULL OR lease_expires_at <= now())) ORDER BY number`);
    const runs = open.rows.map((row) => `run ${String(row.number)}: ${String(row.status)}, lease ${row.lease_owner === null ? "none" : `${String(row.lease_owner)} (${row.held === true ? "held" : "expired"})`}`);
    throw new Error(`${(error as Error).message}\nnot ended:\n${runs.join("\n")}\n${logs.map((log, i) => `worker ${i} (pid ${String(workers[i]?.pid)}):\n${log.split("\n").slice(-15).join("\n")}`).join("\n")}`);
  });

  const rows = await sql(
    url,
    `SELECT run_id, seq::int AS seq, epoch::int AS epoch, (body::json)->>'type' AS type, (body::json)->'data'->'error'->>'message' AS error,
            (body::json)->'data'->>'stage' AS stage, ((body::json)->'data'->>'visit')::int AS visit, (body::json)->'data'->>'next' AS next,
            ((body::json)->'data'->>'resumed')::boolean AS resumed, (body::json)->'stage'->>'branch' AS branch
     FROM baton_events ORDER BY run_id, seq`,
  );
  const byRun = new Map<string, Row[]>();
  for (const row of rows.rows as Array<Row & { run_id: string }>) byRun.set(row.run_id, [...(byRun.get(row.run_id) ?? []), row]);
  assert.equal(byRun.size, RUNS);
  const workflowRuns = new Set((await sql(url, "SELECT id FROM baton_runs WHERE task LIKE 'chaos workflow %'")).rows.map((row) => String(row.id)));
  let lost = 0;
  let continued = 0;
  let fromLastCheckpoint = 0;
  for (const [run, events] of byRun) {
    const trail = events.map((event) => event.error ?? event.type).join(", ");
    events.forEach((event, i) => assert.equal(event.seq, i + 1, `run ${run}'s seqs are gapless`));
    for (let i = 1; i < events.length; i += 1) {
      assert.ok((events[i]?.epoch ?? 0) >= (events[i - 1]?.epoch ?? 0), `run ${run}: seq ${i + 1} carries epoch ${events[i]?.epoch}, after epoch ${events[i - 1]?.epoch}: a stale writer`);
    }
    assert.ok(FINAL.includes(events.at(-1)?.type ?? ""), `run ${run} ends with a final event: ${trail}`);
    // Exactly one final event per run.started (none before the first): each attempt ends once, and nothing but a new attempt follows an end.
    let open = false;
    for (const event of events) {
      if (event.type === "run.started") {
        assert.ok(!open, `run ${run}: an attempt started while one was open: ${trail}`);
        open = true;
      } else if (FINAL.includes(event.type)) {
        assert.ok(open || events.every((e) => e.type !== "run.started"), `run ${run}: a second final event for one attempt: ${trail}`);
        open = false;
      }
    }
    if (events.some((event) => event.type === "worker.lost")) lost += 1;
    const starts = events.filter((event) => event.type === "run.started");
    if (!workflowRuns.has(run)) {
      assert.ok(starts.length <= 1, `single-session run ${run} started once: ${trail}`);
      assert.equal(events.filter((event) => FINAL.includes(event.type)).length, 1, `run ${run} ends exactly once: ${trail}`);
      continue;
    }
    // A resumed attempt follows worker.lost and goes on after a checkpoint: the visits done by then never run again.
    for (const start of starts.filter((event) => event.resumed === true)) {
      continued += 1;
      const before = events.filter((event) => event.seq < start.seq);
      assert.ok(before.some((event) => event.type === "worker.lost"), `run ${run}: a resumed attempt follows worker.lost: ${trail}`);
      const first = events.find((event) => event.seq > start.seq && event.type === "stage.started");
      if (first === undefined) continue;
      const checkpoints = before.filter((event) => event.type === "checkpoint.saved");
      const from = checkpoints.findLast((event) => event.next === first.stage);
      assert.ok(from !== undefined, `run ${run}: its resumed attempt starts at ${first.stage}, the next stage of a checkpoint: ${trail}`);
      if (from === checkpoints.at(-1)) fromLastCheckpoint += 1;
      const done = before.filter((event) => event.type === "stage.completed" && event.seq < from.seq).map((event) => `${event.stage}@${event.visit}`);
      const again = events.filter((event) => event.seq > start.seq && event.type === "stage.started" && done.includes(`${event.stage}@${event.visit}`));
      assert.deepEqual(again, [], `run ${run}: a completed visit ran again after the resume: ${trail}`);
    }
    if (events.at(-1)?.type === "run.completed") {
      const ran = events.filter((event) => event.type === "stage.completed").map((event) => event.stage);
      for (const stage of STAGES) assert.ok(ran.includes(stage), `run ${run} completed ${stage}: ${trail}`);
    }
  }
  process.stderr.write(`chaos: ${kills} kills, ${lost} runs lost a worker; ${continued} workflow attempts continued on another worker (${fromLastCheckpoint} from the last checkpoint logged, the others from an earlier one the remote had)\n`);
  assert.ok(continued >= 1, `a killed worker's workflow run continued on another worker (${kills} kills)`);
  for (const child of workers) child.kill("SIGTERM");
  assert.equal(await exportStoredLogs(url), RUNS);
});
