// What every benchmark shares: sizes from the command line, rounds, medians and percentiles,
// number formatting, and the peak RSS of a child process. Benchmarks print; they never fail
// on timing.
import { spawn, type StdioOptions } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root, and the `baton` CLI entry run as users run it (the `bin/baton.js` launcher). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** `BATON_BENCH_CLI=/path/to/baton.js` measures another checkout's CLI (a variant under test) with these benchmarks. */
export const cliEntry = process.env["BATON_BENCH_CLI"] ?? path.join(repoRoot, "packages", "cli", "bin", "baton.js");

/** True with `--quick` or `BATON_BENCH_QUICK=1`: every size falls back to its quick value. */
export const quick = process.argv.includes("--quick") || process.env["BATON_BENCH_QUICK"] === "1";

/**
 * A size of a benchmark: `--<flag> N`, else the environment variable, else the default (the
 * issue's size), or the quick size under `--quick`.
 *
 * @example const events = sizeArg("events", "BATON_BENCH_EVENTS", 1_000_000, 50_000);
 */
export function sizeArg(flag: string, envVar: string, fallback: number, quickFallback = fallback): number {
  const at = process.argv.indexOf(`--${flag}`);
  const text = at === -1 ? process.env[envVar] : process.argv[at + 1];
  const value = text === undefined ? (quick ? quickFallback : fallback) : Number(text);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`--${flag} (or ${envVar}) must be a positive integer, not ${text}`);
  return value;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The value at `fraction` (0..1) of an ascending list (nearest rank). */
export function percentile(sorted: ArrayLike<number>, fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
}

export function fixed(value: number, digits = 2): string {
  return value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

export function whole(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

export function mib(bytes: number): string {
  return fixed(bytes / 1024 / 1024, 1);
}

/**
 * Preloaded into measured children with `--import`: writes the process's peak RSS (VmHWM,
 * from /proc/self/status) to stderr as it exits. A data: URL of plain JavaScript, so that it
 * adds no file and no TypeScript to the process it measures.
 */
const PEAK_REPORTER = `data:text/javascript,${encodeURIComponent(`
import { readFileSync, writeSync } from "node:fs";
process.on("exit", () => {
  const kib = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? "NaN";
  const cpu = process.cpuUsage();
  writeSync(2, "\\nBATON_BENCH_PEAK_RSS " + Number(kib) * 1024 + " " + (cpu.user + cpu.system) / 1000 + "\\n");
});`)}`;
const PEAK_LINE = /^BATON_BENCH_PEAK_RSS (\d+) ([\d.]+)$/m;

/** `cpuMs`: the child's CPU time (user + system) as it exits, from `process.cpuUsage()` in the same preloaded module. */
/** `spawnedAt` and `exitedAt` are wall-clock times in epoch milliseconds, to set beside times the child reports. */
export type Measured = { ms: number; spawnedAt: number; exitedAt: number; code: number | null; peakRss: number; cpuMs: number; stdout: string; stdoutLines: number; stderr: string };

export type MeasureOptions = {
  /** Keep the child's stdout (default: it goes to /dev/null). */
  captureStdout?: boolean;
  /** Count the lines of the child's stdout without keeping it (a counting sink). */
  countStdoutLines?: boolean;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
};

/**
 * Runs `node <args>` as a child and measures it: wall time from spawn to exit, its CPU time, and its peak
 * RSS, read from /proc/self/status (VmHWM) by a module preloaded with `--import` as it exits
 * (not `resourceUsage().maxRSS`: on Linux a child starts with its forking parent's peak).
 */
export async function runMeasured(args: readonly string[], options: MeasureOptions = {}): Promise<Measured> {
  const piped = options.captureStdout === true || options.countStdoutLines === true;
  const stdio: StdioOptions = ["ignore", piped ? "pipe" : "ignore", "pipe"];
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", PEAK_REPORTER, ...args], { stdio, cwd: options.cwd ?? repoRoot, env: options.env ?? process.env });
  let stdout = "";
  let stdoutLines = 0;
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    if (options.captureStdout) stdout += chunk.toString("utf8");
    for (let at = chunk.indexOf(0x0a); at !== -1; at = chunk.indexOf(0x0a, at + 1)) stdoutLines += 1;
  });
  child.stderr?.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  const ended = performance.now();
  const peak = PEAK_LINE.exec(stderr);
  return { ms: ended - started, spawnedAt: performance.timeOrigin + started, exitedAt: performance.timeOrigin + ended, code, peakRss: peak ? Number(peak[1]) : Number.NaN, cpuMs: peak ? Number(peak[2]) : Number.NaN, stdout, stdoutLines, stderr: stderr.replace(PEAK_LINE, "").trim() };
}
