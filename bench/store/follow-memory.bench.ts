// Memory of following a large run, measured the way a user meets it: the peak RSS (VmHWM)
// of a `baton events <n> --follow --json` process (the real CLI as a child, its stdout
// counted and discarded) following a finished 1,000,000-event run to its final event.
// Baseline, same run: the same command with --after N-1 (the same modules and store open,
// one event). The launcher starts `baton events` with memory-lean V8 flags (see bin/baton.js);
// the store's follower alone and the import breakdown run on Node's defaults. Also printed: the store's follower in a bare process, and what each part of
// the CLI's process costs as it is imported. Prints figures; asserts nothing.
//   node bench/store/follow-memory.bench.ts [--events N] [--quick]   (default 1,000,000 events)
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "@baton/engine/store";
import { cliEntry, fixed, median, mib, quick, repoRoot, runMeasured, whole, type Measured } from "../measure.ts";
import { eventCount, finishedRun, scratchBatonDir } from "./store-fixtures.ts";

const events = eventCount(1_000_000, 100_000);
const ROUNDS = quick ? 1 : 3;
const AIM_BYTES = 64_000_000;
const storeFollower = path.join(path.dirname(fileURLToPath(import.meta.url)), "follow-to-end.ts");

/**
 * `baton events 1 --follow --json [--after N]` in `repo`, its stdout to /dev/null, or into a
 * pipe whose lines are counted (then checked against `expected`). A follow only ends after
 * the run's final event, so exit 0 means it got there.
 */
async function followWithCli(repo: string, after: number, options: { env: NodeJS.ProcessEnv; countExpected?: number; entry?: string }): Promise<Measured> {
  const args = [options.entry ?? cliEntry, "-C", repo, "events", "1", "--follow", "--json", "--after", String(after)];
  const measured = await runMeasured(args, { countStdoutLines: options.countExpected !== undefined, env: options.env });
  if (measured.code !== 0 || (options.countExpected !== undefined && measured.stdoutLines !== options.countExpected)) {
    throw new Error(`baton events exited ${measured.code} after ${measured.stdoutLines} lines: ${measured.stderr}`);
  }
  return measured;
}

/**
 * Peak RSS after each import, cumulative, in one fresh process of plain JavaScript (no type
 * stripping until the step that asks for it), resolved from the CLI package like the CLI.
 */
function importBreakdown(): { step: string; rss: number }[] {
  const steps: [string, string][] = [
    ["node itself", ""],
    ["+ type stripping (one .ts module)", "./src/context.ts"],
    ["+ @baton/engine/store (~35 modules, node:sqlite, @baton/protocol/core)", "@baton/engine/store"],
    ["+ commander", "commander"],
    ["(not loaded by events) + zod", "zod"],
    ["(not loaded by events) + @baton/protocol (its schemas)", "@baton/protocol"],
    ["(not loaded by events) + @baton/engine whole: ACP SDK, runner", "@baton/engine"],
  ];
  const code = `
    import { readFileSync } from "node:fs";
    const peak = () => Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]) * 1024;
    const rows = [];
    for (const [step, specifier] of ${JSON.stringify(steps)}) {
      if (specifier) await import(specifier);
      rows.push({ step, rss: peak() });
    }
    console.log(JSON.stringify(rows));`;
  const env = { ...process.env };
  delete env["NODE_COMPILE_CACHE"];
  const output = execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: path.join(repoRoot, "packages", "cli"), encoding: "utf8", env });
  return JSON.parse(output) as { step: string; rss: number }[];
}

const { root, batonDir, cleanup } = await scratchBatonDir();
const cacheDir = await mkdtemp(path.join(os.tmpdir(), "baton-bench-cache-"));
try {
  execFileSync("git", ["init", "-q", root]);
  let runId: string;
  {
    await using store = await openStore(batonDir);
    runId = await finishedRun(store, events);
  }
  const size = (await stat(path.join(batonDir, "runs", runId, "events.jsonl"))).size;
  // The launcher turns on Node's compile cache: the first start fills it, later ones skip
  // stripping types and compiling. Measured as users meet it (cache warm), and without it.
  const noCache = { ...process.env, NODE_DISABLE_COMPILE_CACHE: "1" };
  const cached = { ...process.env, NODE_COMPILE_CACHE: cacheDir };
  const first = await followWithCli(root, events - 1, { env: cached });

  const followed: Measured[] = [];
  const tail: Measured[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    tail.push(await followWithCli(root, events - 1, { env: cached }));
    followed.push(await followWithCli(root, 0, { env: cached }));
  }
  const peak = median(followed.map((m) => m.peakRss));
  const base = median(tail.map((m) => m.peakRss));
  const ms = median(followed.map((m) => m.ms));
  console.log(`follow a finished ${whole(events)}-event run (${mib(size)} MiB log) to its final event: \`baton events 1 --follow --json > /dev/null\` (compile cache warm), ${ROUNDS} rounds, medians`);
  console.log(`  peak RSS following          ${mib(peak).padStart(7)} MiB = ${fixed(peak / 1e6, 1)} MB  (${fixed(ms / 1000, 1)} s, ${whole((events / ms) * 1000)} events/s)   (aim: <= 64 MB)`);
  console.log(`  peak RSS --after N-1        ${mib(base).padStart(7)} MiB  (baseline: same command and modules, one event)`);
  console.log(`  following adds ${mib(peak - base)} MiB; ratio ${fixed(peak / base)}; ${peak < AIM_BYTES ? "under" : "over"} the aim by ${fixed(Math.abs(AIM_BYTES - peak) / 1e6, 1)} MB`);

  console.log(`  the first start (empty compile cache), --after N-1: ${mib(first.peakRss)} MiB`);
  const coldFollow = await followWithCli(root, 0, { env: noCache });
  const coldTail = await followWithCli(root, events - 1, { env: noCache });
  console.log(`  compile cache disabled: following ${mib(coldFollow.peakRss)} MiB, --after N-1 ${mib(coldTail.peakRss)} MiB`);

  // The CLI without its launcher (src/bin.ts, the compile cache on): Node's default V8 flags.
  const binTs = path.join(path.dirname(cliEntry), "..", "src", "bin.ts");
  await followWithCli(root, events - 1, { env: cached, entry: binTs }); // fills the compile cache for Node's default flags
  const bare = await followWithCli(root, 0, { env: cached, entry: binTs });
  console.log(`  without the launcher's V8 flags (src/bin.ts, compile cache warm): following ${mib(bare.peakRss)} MiB (${fixed(bare.ms / 1000, 1)} s)`);

  const piped = await followWithCli(root, 0, { env: cached, countExpected: events });
  console.log(`  into a pipe read by this process (counting sink): ${mib(piped.peakRss)} MiB, all ${whole(piped.stdoutLines)} events  (stdout to a pipe is asynchronous in Node: a writer that ignores backpressure queues what the reader has not taken)`);

  const storeOnly = await runMeasured([storeFollower, batonDir, runId], { captureStdout: true, env: noCache });
  const storeOpen = await runMeasured([storeFollower, batonDir, "-"], { captureStdout: true, env: noCache });
  console.log(`  the store's follower alone (follow-to-end.ts): ${mib(storeOnly.peakRss)} MiB following, ${mib(storeOpen.peakRss)} MiB store open only`);

  console.log("where the CLI's resident memory goes (peak RSS after each import, one process, cumulative):");
  let previous = 0;
  for (const { step, rss } of importBreakdown()) {
    console.log(`  ${step.padEnd(64)} ${mib(rss).padStart(6)} MiB  ${previous === 0 ? "" : `+${mib(rss - previous)}`}`);
    previous = rss;
  }
} finally {
  await cleanup();
  await rm(cacheDir, { recursive: true, force: true });
}
