// Engine overhead per stage transition: a chain of N trivial command stages (`true`) walked by
// `executeWorkflow` (the engine API, in this process; the workflow built with @baton/workflow's
// builder), against the same N commands run by a loop that spawns `sh -c true` the way a command
// stage does (its own process group, stdout and stderr piped, the same environment), one after
// the other. The run works in place, so no stage makes a checkpoint commit (that is
// checkpoint-commit.bench.ts): what differs is Baton's own work per stage (stage.started and
// stage.completed, the trace file of the command's output, routing, route.selected and
// checkpoint.saved, the durable log with group commit, the run-state fold). Prints ms per stage
// for each side and the difference; asserts nothing.
//   node bench/workflow/stage-transition.bench.ts [--stages N] [--quick]   (default 200; quick 50)
//
// The engine API rather than `baton run --workflow`: the CLI adds its start-up (Node, the module
// graph, config, git, the store) once per run, not per stage; in process, every round measures
// the same warm code, and the run's own start (run.created … workflow.loaded, the terminal
// event) is printed apart from the stages.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { chain, command, defineWorkflow, exit, start, type WorkflowDefinition } from "@baton/workflow";
import { fixed, median, quick, sizeArg, whole } from "../measure.ts";
import { commandEnv, gitRepo, runWorkflowInPlace, scratchDir } from "./workflow-fixtures.ts";

const stages = sizeArg("stages", "BATON_BENCH_STAGES", 200, 50);
const ROUNDS = quick ? 3 : 5;
const AIM_MS = 5;

function chainOf(count: number): WorkflowDefinition {
  const ids = Array.from({ length: count }, (_, index) => `step${index + 1}`);
  return defineWorkflow("chain", { nodes: [start(), ...ids.map((id) => command(id, "true")), exit()], edges: chain("start", ...ids, "exit") });
}

/** `sh -c true` as runCommand starts it: detached (a process group of its own), output piped and read, the group killed after. */
function shellOnce(cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", "true"], { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
    child.once("error", reject);
    child.once("close", (code) => {
      try {
        process.kill(-(child.pid ?? 0), "SIGKILL");
      } catch {
        // The group is gone already.
      }
      if (code === 0) resolve();
      else reject(new Error(`sh -c true exited ${code}: ${output}`));
    });
  });
}

/** This process's CPU time (user + system) in ms: less swayed by the machine's load than wall time. */
function cpuMs(since?: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1_000;
}

/** `ms`: the whole side; `stepMs`: the median of its N steps (a command, or a stage start to the next), which a burst of load on the machine moves less. */
type Round = { ms: number; cpuMs: number; stepMs: number };

async function shellLoop(cwd: string, count: number): Promise<Round> {
  const env = commandEnv();
  const cpu = process.cpuUsage();
  const began = performance.now();
  const steps: number[] = [];
  for (let index = 0; index < count; index += 1) {
    const stepBegan = performance.now();
    await shellOnce(cwd, { ...env, BATON_RUN_STAGE: `step${index + 1}` });
    steps.push(performance.now() - stepBegan);
  }
  return { ms: performance.now() - began, cpuMs: cpuMs(cpu), stepMs: median(steps) };
}

type EngineRound = Round & { stagesMs: number; events: number };

/** The whole run, and the part from the first command stage's start to the exit stage's start (the N transitions). */
async function engineRun(batonDir: string, repo: string, definition: WorkflowDefinition): Promise<EngineRound> {
  // Each stage.started as the engine appends it: a command stage's step is its start to the next stage's.
  const starts: number[] = [];
  const cpu = process.cpuUsage();
  const began = performance.now();
  const result = await runWorkflowInPlace(batonDir, repo, definition, "walk the chain", (type, data, at) => {
    if (type === "stage.started" && data["stage"] !== "start") starts.push(at);
  });
  const ms = performance.now() - began;
  const cpuUsed = cpuMs(cpu);
  const steps = starts.slice(1).map((at, index) => at - (starts[index] as number));
  if (result.status !== "succeeded") throw new Error(`the chain ended ${result.status}: ${JSON.stringify(result.error ?? {})}`);
  const log = await readFile(path.join(batonDir, "runs", result.runId, "events.jsonl"), "utf8");
  const events = log.trimEnd().split("\n");
  return { ms, cpuMs: cpuUsed, stepMs: median(steps), stagesMs: (starts.at(-1) as number) - (starts[0] as number), events: events.length };
}

const scratch = await scratchDir("stages");
try {
  const repo = await gitRepo(path.join(scratch.dir, "repo"));
  const batonDir = path.join(repo, ".baton");
  const definition = chainOf(stages);
  // One run first, not counted: the first stage spawns and the first appends warm up the code.
  await engineRun(batonDir, repo, chainOf(5));
  await shellLoop(repo, 5);
  const engine: EngineRound[] = [];
  const shell: Round[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Alternate which side goes first, so that neither always meets the machine in the same state.
    if (round % 2 === 0) {
      engine.push(await engineRun(batonDir, repo, definition));
      shell.push(await shellLoop(repo, stages));
    } else {
      shell.push(await shellLoop(repo, stages));
      engine.push(await engineRun(batonDir, repo, definition));
    }
  }
  const perStage = (ms: number) => ms / stages;
  const engineMean = median(engine.map((r) => perStage(r.stagesMs)));
  const shellMean = median(shell.map((r) => perStage(r.ms)));
  const engineStep = median(engine.map((r) => r.stepMs));
  const shellStep = median(shell.map((r) => r.stepMs));
  const engineCpu = median(engine.map((r) => perStage(r.cpuMs)));
  const shellCpu = median(shell.map((r) => perStage(r.cpuMs)));
  const row = (name: string, mean: number, step: number, cpu: number) => `  ${name.padEnd(16)}${fixed(mean).padStart(10)}${fixed(step).padStart(14)}${fixed(cpu).padStart(12)}`;
  console.log(`stage transitions: a chain of ${whole(stages)} command stages (\`true\`) through executeWorkflow, in place (${whole(engine[0]?.events ?? 0)} events a run), against a loop of sh -c true spawned the same way; ${ROUNDS} rounds, medians`);
  console.log(`  ms per stage        mean   median step   CPU here`);
  console.log(row("executeWorkflow", engineMean, engineStep, engineCpu));
  console.log(row("shell loop", shellMean, shellStep, shellCpu));
  console.log(row("difference", engineMean - shellMean, engineStep - shellStep, engineCpu - shellCpu));
  console.log(`  ratio executeWorkflow / shell loop: ${fixed(engineMean / shellMean)} (means), ${fixed(engineStep / shellStep)} (median steps)   (aim: Baton's own work <= ${AIM_MS} ms a stage)`);
  console.log(`  per round, mean per stage: executeWorkflow ${engine.map((r) => fixed(perStage(r.stagesMs))).join(", ")}; shell loop ${shell.map((r) => fixed(perStage(r.ms))).join(", ")}`);
  console.log(`  executeWorkflow's whole run (run.created to the log closed) / stages: ${fixed(median(engine.map((r) => perStage(r.ms))))} ms`);
} finally {
  await scratch.cleanup();
}
