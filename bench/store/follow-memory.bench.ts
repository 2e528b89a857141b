// Memory of following a large run to its end: a child process follows a finished
// 1,000,000-event run from seq 0 to its final event; its peak RSS is compared with the same
// child that only opens the store (the baseline, same run). Prints figures; asserts nothing.
//   node bench/store/follow-memory.bench.ts [--events N]   (default 1,000,000 events)
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openStore } from "../../packages/engine/src/store/index.ts";
import { eventCount, finishedRun, fixed, scratchBatonDir, whole } from "./bench-support.ts";

const events = eventCount(1_000_000);
const follower = path.join(path.dirname(fileURLToPath(import.meta.url)), "follow-to-end.ts");
type Figures = { count: number; maxRss: number; ms: number };
const runChild = (batonDir: string, runId: string) =>
  JSON.parse(execFileSync(process.execPath, [follower, batonDir, runId], { encoding: "utf8" })) as Figures;

const { batonDir, cleanup } = await scratchBatonDir();
try {
  let runId: string;
  {
    await using store = await openStore(batonDir);
    runId = await finishedRun(store, events);
  }
  const size = fs.statSync(path.join(batonDir, "runs", runId, "events.jsonl")).size;
  const baseline = runChild(batonDir, "-");
  const followed = runChild(batonDir, runId);
  if (followed.count !== events) throw new Error(`followed ${followed.count} events, expected ${events}`);
  const mb = (bytes: number) => fixed(bytes / 1024 / 1024, 1);
  console.log(`follow a finished ${whole(events)}-event run (${mb(size)} MiB log) from 0 to its final event, in a child process`);
  console.log(`  peak RSS following        ${mb(followed.maxRss).padStart(7)} MiB  (${fixed(followed.ms / 1000, 1)} s, ${whole((followed.count / followed.ms) * 1000)} events/s)`);
  console.log(`  peak RSS store open only  ${mb(baseline.maxRss).padStart(7)} MiB  (baseline)`);
  console.log(`  ratio following / baseline: ${fixed(followed.maxRss / baseline.maxRss)}; growth ${mb(followed.maxRss - baseline.maxRss)} MiB   (aim: peak < 100 MB)`);
} finally {
  await cleanup();
}
