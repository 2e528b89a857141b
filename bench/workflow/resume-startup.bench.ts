// `baton approve RUN` start-up on a paused workflow run whose log holds N events: from spawning
// the CLI (the `bin/baton.js` launcher, compile cache warm) to the first new event of the run
// (`run.started {resumed: true}`) reaching this process, which follows the log through the store
// (`followRun`, woken by the commit hint; no polling). Before it resumes, the run is built by
// `baton run --workflow` with the fake agent: a stage that says and thinks N/2 times each (an
// `agent.message` and an `agent.thought` per step), then a human gate, where the run pauses.
// Baseline, same run and log: `baton show RUN`, spawn to exit (the same start-up, the same log
// read and folded, then a summary printed). Prints medians and the ratio; asserts nothing.
//   node bench/workflow/resume-startup.bench.ts [--events N] [--rounds R] [--quick]   (default 10,000; quick 2,000; 5 / 3 rounds)
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { openStore } from "@baton/engine/store";
import { cliEntry, fixed, median, runMeasured, sizeArg, whole, type Measured } from "../measure.ts";
import { gitRepo, scratchDir } from "./workflow-fixtures.ts";

const events = sizeArg("events", "BATON_BENCH_EVENTS", 10_000, 2_000);
const ROUNDS = sizeArg("rounds", "BATON_BENCH_ROUNDS", 5, 3);
const AIM_MS = 300;
/** The events of a run besides the flood: run.created … approval.requested, run.paused. */
const FRAME_EVENTS = 20;

const WORKFLOW = `digraph paused {
  start [shape=Mdiamond]
  work [prompt="Work through the list"]
  approve [shape=hexagon, label="Go on?"]
  exit [shape=Msquare]
  start -> work -> approve
  approve -> exit [label="[A] Approve"]
}
`;

const baton = (repo: string, args: string[]) => [cliEntry, "-C", repo, ...args];

/** A paused run of about `events` events (not timed): its id, number and last seq. */
async function pausedRun(repo: string, script: string): Promise<{ id: string; number: number; lastSeq: number }> {
  const made = await runMeasured(baton(repo, ["run", "fill the log, then wait at the gate", "--workflow", "paused", "--script", script, "--json", "--timeout", "30m"]), { captureStdout: true });
  if (made.code !== 4) throw new Error(`baton run should pause at the gate (exit 4), not exit ${made.code}: ${made.stderr}`);
  await using store = await openStore(path.join(repo, ".baton"));
  const run = (await store.listRuns()).at(-1);
  if (run === undefined) throw new Error("no run was made");
  let lastSeq = 0;
  for await (const event of store.readRun(run.id)) lastSeq = event.seq ?? lastSeq;
  return { id: run.id, number: run.number, lastSeq };
}

/** Clock ticks a second of /proc/PID/stat's CPU times (`getconf CLK_TCK`; 100 on Linux). */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** CPU time (user + system) a live process has used so far, from /proc/PID/stat (in clock ticks: 10 ms steps). */
function cpuSoFar(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1_000) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

type Approved = { firstMs: number; firstCpuMs: number; exitMs: number };

/**
 * Spawn of `baton approve` → the first event after `lastSeq` delivered to this process (and
 * the child's CPU time by then); then the run goes on to its end.
 */
async function approveToFirstEvent(repo: string, run: { id: string; number: number; lastSeq: number }): Promise<Approved> {
  await using store = await openStore(path.join(repo, ".baton"));
  const abort = new AbortController();
  const first = (async () => {
    for await (const event of store.followRun(run.id, { after: run.lastSeq, signal: abort.signal })) return { at: performance.now(), type: event.type };
    throw new Error("the run ended without a new event");
  })();
  const began = performance.now();
  const child = spawn(process.execPath, baton(repo, ["approve", String(run.number), "--json"]), { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  const seen = await Promise.race([first, exited.then((code) => Promise.reject(new Error(`baton approve exited ${code} before a new event: ${stderr}`)))]);
  const firstCpuMs = cpuSoFar(child.pid);
  const code = await exited;
  abort.abort();
  if (code !== 0) throw new Error(`baton approve exited ${code}: ${stderr}`);
  if (seen.type !== "run.started") throw new Error(`the first new event is ${seen.type}, not run.started`);
  return { firstMs: seen.at - began, firstCpuMs, exitMs: performance.now() - began };
}

const scratch = await scratchDir("resume");
try {
  const repo = await gitRepo(path.join(scratch.dir, "repo"));
  execFileSync(process.execPath, baton(repo, ["init"]), { stdio: "ignore" });
  await mkdir(path.join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(path.join(repo, ".baton", "workflows", "paused.dot"), WORKFLOW);
  const script = path.join(scratch.dir, "stages.json");
  const times = Math.max(1, Math.round((events - FRAME_EVENTS) / 2));
  const steps = [{ say: "A line of the agent's reply, about as long as one usually is when it explains a step of its work." }, { think: "A thought of the agent about the next step of the work." }];
  await writeFile(script, JSON.stringify({ stages: { work: [{ repeat: { times, steps } }] } }));
  // One of each first, not counted: the launcher's compile cache is written by a first start.
  await approveToFirstEvent(repo, await pausedRun(repo, script));

  const approvals: Approved[] = [];
  const shows: Measured[] = [];
  let logged = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const run = await pausedRun(repo, script);
    logged = run.lastSeq;
    const shown = await runMeasured(baton(repo, ["show", String(run.number)]));
    if (shown.code !== 0) throw new Error(`baton show exited ${shown.code}: ${shown.stderr}`);
    shows.push(shown);
    approvals.push(await approveToFirstEvent(repo, run));
  }
  const firstMs = median(approvals.map((a) => a.firstMs));
  const showMs = median(shows.map((m) => m.ms));
  console.log(`resume start-up: a workflow run paused at a gate with ${whole(logged)} events in its log; ${ROUNDS} rounds, medians`);
  const firstCpu = median(approvals.map((a) => a.firstCpuMs));
  const showCpu = median(shows.map((m) => m.cpuMs));
  console.log(`  baton approve RUN: spawn -> first new event (run.started) followed   ${fixed(firstMs, 0).padStart(5)} ms   CPU ${fixed(firstCpu, 0).padStart(4)} ms   per round ${approvals.map((a) => fixed(a.firstMs, 0)).join(", ")}`);
  console.log(`  baton approve RUN: spawn -> exit (the run goes on to its exit)        ${fixed(median(approvals.map((a) => a.exitMs)), 0).padStart(5)} ms`);
  console.log(`  baton show RUN: spawn -> exit, the same log                           ${fixed(showMs, 0).padStart(5)} ms   CPU ${fixed(showCpu, 0).padStart(4)} ms   per round ${shows.map((m) => fixed(m.ms, 0)).join(", ")}`);
  console.log(`  ratio approve-to-first-event / show: ${fixed(firstMs / showMs)} wall, ${fixed(firstCpu / showCpu)} CPU   (aim: <= ${AIM_MS} ms to the first new event)`);
} finally {
  await scratch.cleanup();
}
