// Harness overhead: one scripted agent run through `baton run` (the real CLI as a child
// process, --json to /dev/null, in a temporary git repository with .baton/ initialised)
// against the same script driven by a bare ACP SDK client that discards every update and
// allows every tool call (bench/harness/bare-acp-client.ts, also a child process). Both
// start the same fake agent on the same script in a fresh repository of their own, and are
// timed from spawn to exit. Prints wall times (medians), the ratio and peak RSS, and where the
// time went on each side: the start (spawn to the prompt's turn beginning: Baton's first
// `turn.started`, the bare client's session ready), the turn (to `turn.completed`, the prompt's
// answer) and the end (from there to exit). Asserts nothing.
//   node bench/harness-overhead.bench.ts [--chunks N] [--tools M] [--rounds R] [--quick]   (default 10,000, 1,000 and 5 rounds)
//
// The script: {"flood": N} (N message chunks), then M `write` steps (an edit tool call each:
// permission request, file write, a diff in the result). `write` rather than `run`: spawning
// `sh` a thousand times would add the same seconds to both sides and hide Baton's share.
import { execFileSync } from "node:child_process";
import { readFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fakeAgentCommand } from "@baton/testkit";
import { cliEntry, fixed, median, mib, repoRoot, runMeasured, sizeArg, whole, type Measured } from "./measure.ts";

const chunks = sizeArg("chunks", "BATON_BENCH_CHUNKS", 10_000, 2_000);
const tools = sizeArg("tools", "BATON_BENCH_TOOLS", 1_000, 200);
const ROUNDS = sizeArg("rounds", "BATON_BENCH_ROUNDS", 5, 3);
const AIM_RATIO = 1.2;
const bareClient = path.join(repoRoot, "bench", "harness", "bare-acp-client.ts");

const scratch = await mkdtemp(path.join(os.tmpdir(), "baton-bench-harness-"));

/**
 * A fresh git repository with one commit and `.baton/` initialised by the CLI (not timed). Baton
 * runs in its default mode: its own worktree and branch, and a commit of what the agent wrote,
 * all of which is in the measured time.
 */
async function freshRepo(name: string): Promise<string> {
  const repo = path.join(scratch, name);
  execFileSync("git", ["init", "-q", repo]);
  const identity = ["-c", "user.name=Baton Bench", "-c", "user.email=bench@baton.invalid"];
  execFileSync("git", ["-C", repo, ...identity, "commit", "-q", "--allow-empty", "-m", "Initial commit"]);
  execFileSync(process.execPath, [cliEntry, "-C", repo, "init"], { stdio: "ignore" });
  return repo;
}

/** Milliseconds of a run's start (spawn to its turn), its turn, and its end (the turn's end to exit). */
type Phases = { start: number; turn: number; end: number };

function phases(measured: Measured, turnStartedAt: number, turnEndedAt: number): Phases {
  return { start: turnStartedAt - measured.spawnedAt, turn: turnEndedAt - turnStartedAt, end: measured.exitedAt - turnEndedAt };
}

async function batonRun(scriptPath: string, repo: string): Promise<Measured & { events: number; phases: Phases }> {
  const measured = await runMeasured([cliEntry, "-C", repo, "run", "play the script", "--agent", "fake", "--script", scriptPath, "--json", "--timeout", "30m"]);
  if (measured.code !== 0) throw new Error(`baton run exited ${measured.code}: ${measured.stderr}`);
  const runs = path.join(repo, ".baton", "runs");
  const [run] = execFileSync("ls", [runs], { encoding: "utf8" }).trim().split("\n");
  const log = await readFile(path.join(runs, run ?? "", "events.jsonl"), "utf8");
  const events = log.trim().split("\n").map((line) => JSON.parse(line) as { type: string; at: string });
  const at = (type: string) => Date.parse(events.find((event) => event.type === type)?.at ?? "");
  return { ...measured, events: events.length, phases: phases(measured, at("turn.started"), at("turn.completed")) };
}

async function bareRun(scriptPath: string, repo: string): Promise<Measured & { phases: Phases }> {
  const agent = fakeAgentCommand(scriptPath);
  const measured = await runMeasured([bareClient, repo, agent.command, ...agent.args], { captureStdout: true });
  const outcome = measured.code === 0 ? (JSON.parse(measured.stdout) as { stopReason: string; exitCode: number | null; sessionAt: number; turnEndAt: number }) : undefined;
  if (outcome?.stopReason !== "end_turn" || outcome.exitCode !== 0) throw new Error(`the bare client failed (${measured.code}): ${measured.stdout} ${measured.stderr}`);
  return { ...measured, phases: phases(measured, outcome.sessionAt, outcome.turnEndAt) };
}

/** The medians of each phase, in milliseconds. */
function phaseText(runs: readonly { phases: Phases }[]): string {
  const of = (phase: keyof Phases) => `${phase} ${whole(median(runs.map((run) => run.phases[phase])))}`.padEnd(11);
  return `${of("start")} ${of("turn")} ${of("end")}`;
}

try {
  const scriptPath = path.join(scratch, "script.json");
  const writes = Array.from({ length: tools }, (_, index) => ({ write: { path: `bench-out/file-${index}.txt`, content: `file ${index}\n` } }));
  await writeFile(scriptPath, JSON.stringify([{ flood: chunks }, ...writes]));

  const baton: (Measured & { events: number; phases: Phases })[] = [];
  const bare: (Measured & { phases: Phases })[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const [batonRepo, bareRepo] = [await freshRepo(`baton-${round}`), await freshRepo(`bare-${round}`)];
    // Alternate which side goes first, so that neither always meets a warmer disk cache.
    if (round % 2 === 0) {
      baton.push(await batonRun(scriptPath, batonRepo));
      bare.push(await bareRun(scriptPath, bareRepo));
    } else {
      bare.push(await bareRun(scriptPath, bareRepo));
      baton.push(await batonRun(scriptPath, batonRepo));
    }
  }
  const batonMs = median(baton.map((m) => m.ms));
  const bareMs = median(bare.map((m) => m.ms));
  const ratios = baton.map((m, index) => m.ms / (bare[index] as Measured).ms);
  console.log(`harness overhead: the fake agent plays {"flood": ${whole(chunks)}} then ${whole(tools)} write tool calls; ${ROUNDS} rounds, medians, spawn to exit`);
  const batonCpu = median(baton.map((m) => m.cpuMs));
  const bareCpu = median(bare.map((m) => m.cpuMs));
  console.log(`  baton run --json > /dev/null   ${fixed(batonMs / 1000, 2).padStart(6)} s  CPU ${fixed(batonCpu / 1000, 2)} s  peak RSS ${mib(median(baton.map((m) => m.peakRss)))} MiB  (${whole(baton[0]?.events ?? 0)} durable events logged)`);
  console.log(`  bare ACP SDK client            ${fixed(bareMs / 1000, 2).padStart(6)} s  CPU ${fixed(bareCpu / 1000, 2)} s  peak RSS ${mib(median(bare.map((m) => m.peakRss)))} MiB  (updates discarded, every tool call allowed)`);
  console.log(`  (CPU: the client process's own, user + system, without the agent's)`);
  console.log(`  ratio baton / bare: ${fixed(batonMs / bareMs)} of medians; per round ${ratios.map((r) => fixed(r)).join(", ")}; median of rounds ${fixed(median(ratios))}   (aim: <= ${fixed(AIM_RATIO, 1)})`);
  console.log(`  baton's own CPU beyond the bare client's: ${fixed((batonCpu - bareCpu) / 1000, 2)} s (${fixed(batonCpu / bareCpu)}x)`);
  console.log(`  phases, ms (medians): baton ${phaseText(baton)}  bare ${phaseText(bare)}`);
  console.log(`  (start: spawn to the prompt's turn; turn: to its end; end: from there to exit)`);
} finally {
  await rm(scratch, { recursive: true, force: true });
}
