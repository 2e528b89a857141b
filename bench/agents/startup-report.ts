// What startup.bench.ts decides without an agent: which agents and how many runs, and how its
// figures read (medians with the range, and Baton's ratio to the bare client of the same run).
import { fixed, median } from "../measure.ts";

export type StartupArgs = { runs: number; agents: string[] };

/** Runs per side and agent: the 5, or 2 under `--quick` (a smoke run). */
export const DEFAULT_RUNS = 5;
export const QUICK_RUNS = 2;

/**
 * `--runs N` (else `BATON_BENCH_RUNS`, else 5, or 2 with `--quick`) and `--agents a,b` (else
 * `BATON_BENCH_AGENTS`, else every known agent). Other flags are ignored: `run-all.ts` passes
 * the same arguments to every benchmark.
 *
 * @example parseStartupArgs(["--runs", "3", "--agents", "claude"], {}, ["claude", "codex"]) // { runs: 3, agents: ["claude"] }
 */
export function parseStartupArgs(argv: readonly string[], env: NodeJS.ProcessEnv, known: readonly string[]): StartupArgs {
  const quick = argv.includes("--quick") || env["BATON_BENCH_QUICK"] === "1";
  const runsText = flagValue(argv, "runs") ?? env["BATON_BENCH_RUNS"];
  const runs = runsText === undefined ? (quick ? QUICK_RUNS : DEFAULT_RUNS) : Number(runsText);
  if (!Number.isSafeInteger(runs) || runs < 1) throw new Error(`--runs (or BATON_BENCH_RUNS) must be a positive integer, not ${runsText}`);
  const agentsText = flagValue(argv, "agents") ?? env["BATON_BENCH_AGENTS"];
  const agents = agentsText === undefined ? [...known] : agentsText.split(",").map((name) => name.trim()).filter((name) => name !== "");
  const unknown = agents.filter((name) => !known.includes(name));
  if (unknown.length > 0 || agents.length === 0) throw new Error(`--agents (or BATON_BENCH_AGENTS) takes a comma-separated list of ${known.join(", ")}; not "${agentsText}"`);
  return { runs, agents };
}

function flagValue(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(`--${flag}`);
  if (at === -1) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`--${flag} needs a value`);
  return value;
}

/** One measured run of the bare client: its phases, and its whole process from spawn to exit. */
export type BareSample = { readyMs: number; clientStartMs: number; turnMs: number; stopMs: number; totalMs: number };
/** One measured `baton run`: ready and turn read from its own event log, total from spawn to exit. */
export type BatonSample = { readyMs: number; turnMs: number; totalMs: number };

export type AgentFigures = { agent: string; version: string; bare: BareSample[]; baton: BatonSample[] };

export type Spread = { median: number; min: number; max: number };

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** `1.23 s (1.10–1.50)`: the median in seconds, then the range. */
export function seconds(values: readonly number[]): string {
  const { median: mid, min, max } = spread(values);
  return `${fixed(mid / 1000)} s (${fixed(min / 1000)}–${fixed(max / 1000)})`;
}

/** The ratio of two medians, `n/a` when the baseline is empty or zero. */
export function ratio(over: readonly number[], base: readonly number[]): string {
  if (over.length === 0 || base.length === 0) return "n/a";
  const baseline = median(base);
  return baseline > 0 ? `${fixed(median(over) / baseline)}×` : "n/a";
}

/**
 * The lines for one agent: the bare client's phases, `baton run`'s, and Baton's ratio over the
 * bare client, for the whole run and for ready. Bare ready counts from the agent's spawn (the
 * agent's own start-up); the ready ratio adds the bare client's own start, since Baton's ready
 * counts from Baton's spawn.
 */
export function formatAgent(figures: AgentFigures): string[] {
  const { bare, baton } = figures;
  const lines = [`${figures.agent} ${figures.version}: ${bare.length} bare / ${baton.length} baton runs; median s (min–max)`];
  if (bare.length > 0) {
    lines.push(
      `  bare ACP client   ready ${seconds(bare.map((s) => s.readyMs))}  turn ${seconds(bare.map((s) => s.turnMs))}  stop ${seconds(bare.map((s) => s.stopMs))}  total ${seconds(bare.map((s) => s.totalMs))}`,
    );
  }
  if (baton.length > 0) {
    lines.push(`  baton run --json  ready ${seconds(baton.map((s) => s.readyMs))}  turn ${seconds(baton.map((s) => s.turnMs))}  total ${seconds(baton.map((s) => s.totalMs))}`);
  }
  if (bare.length > 0 && baton.length > 0) {
    const bareReady = bare.map((s) => s.clientStartMs + s.readyMs);
    const perRun = pairedRatios(figures);
    lines.push(
      `  baton / bare: total ${ratio(baton.map((s) => s.totalMs), bare.map((s) => s.totalMs))} of medians, ${fixed(median(perRun))}× median of per-run ratios ` +
        `(${perRun.map((r) => fixed(r)).join(", ")}); ready ${ratio(baton.map((s) => s.readyMs), bareReady)}; turn ${ratio(baton.map((s) => s.turnMs), bare.map((s) => s.turnMs))}`,
    );
  }
  return lines;
}

/**
 * Baton's total over the bare client's, round by round (the two sides of a round ran back to
 * back, so they share the machine's load of the moment): steadier than the ratio of medians
 * when the load swings between rounds.
 */
export function pairedRatios(figures: AgentFigures): number[] {
  return figures.baton.slice(0, figures.bare.length).map((s, index) => s.totalMs / (figures.bare[index] as BareSample).totalMs);
}

/** One row per agent: the medians side by side, for the end of the report. */
export function formatSummary(all: readonly AgentFigures[]): string[] {
  const header = ["agent", "bare ready", "bare turn", "bare total", "baton ready", "baton turn", "baton total", "ratio of medians", "per-run ratio"];
  const rows = all.map((f) => {
    const med = (values: number[]) => (values.length === 0 ? "-" : `${fixed(median(values) / 1000)} s`);
    return [
      f.agent,
      med(f.bare.map((s) => s.readyMs)),
      med(f.bare.map((s) => s.turnMs)),
      med(f.bare.map((s) => s.totalMs)),
      med(f.baton.map((s) => s.readyMs)),
      med(f.baton.map((s) => s.turnMs)),
      med(f.baton.map((s) => s.totalMs)),
      ratio(f.baton.map((s) => s.totalMs), f.bare.map((s) => s.totalMs)),
      f.bare.length > 0 && f.baton.length > 0 ? `${fixed(median(pairedRatios(f)))}×` : "n/a",
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] as string).length)));
  return [header, ...rows].map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column] as number)).join("  ").trimEnd()}`);
}
