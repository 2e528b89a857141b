// Child process of follow-memory.bench.ts, so that its RSS is the follower's alone.
// Usage: node follow-to-end.ts <batonDir> <runId|-> : follows the run from 0 to its final
// event (or, with "-", only opens the store: the baseline) and prints JSON figures.
import { readFileSync } from "node:fs";
import { openStore } from "../../packages/engine/src/store/index.ts";

const [batonDir, runId] = process.argv.slice(2);
if (batonDir === undefined || runId === undefined) throw new Error("usage");
let peak = process.memoryUsage.rss();
const started = performance.now();
let count = 0;
{
  await using store = await openStore(batonDir);
  if (runId !== "-") {
    for await (const event of store.followRun(runId)) {
      count += event.seq === undefined ? 0 : 1;
      if (count % 10_000 === 0) peak = Math.max(peak, process.memoryUsage.rss());
    }
  }
}
peak = Math.max(peak, process.memoryUsage.rss());
// VmHWM, the peak RSS of this process image, also catches a peak between two samples.
// (Not resourceUsage().maxRSS: on Linux it keeps the forking parent's peak across exec.)
const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
const maxRss = Math.max(peak, Number(hwm ?? 0) * 1024);
process.stdout.write(`${JSON.stringify({ count, maxRss, ms: performance.now() - started })}\n`);
