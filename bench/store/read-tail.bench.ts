// readRun(after = N - 10) on a large log (binary search by byte offset, then a short
// stream) against reading the whole log through the same reader and keeping the last 10
// (what a reader without the seek would do). Prints times and the ratio; asserts nothing.
//   node bench/store/read-tail.bench.ts [--events N] [--quick]   (default 1,000,000 events)
import fs from "node:fs";
import { openStore } from "@baton/engine/store";
import { fixed, median, whole } from "../measure.ts";
import { eventCount, finishedRun, scratchBatonDir } from "./store-fixtures.ts";

const events = eventCount(1_000_000);
const TAIL_REPEATS = 21;

const { batonDir, cleanup } = await scratchBatonDir();
try {
  await using store = await openStore(batonDir);
  const generated = performance.now();
  const runId = await finishedRun(store, events);
  const generateMs = performance.now() - generated;
  const size = fs.statSync(store.eventsPath(runId)).size;
  const after = events - 10;

  const tailTimes: number[] = [];
  for (let index = 0; index < TAIL_REPEATS; index += 1) {
    const started = performance.now();
    let count = 0;
    for await (const event of store.readRun(runId, { after })) count += event.seq === undefined ? 0 : 1;
    tailTimes.push(performance.now() - started);
    if (count !== 10) throw new Error(`expected 10 events after ${after}, got ${count}`);
  }

  const fullTimes: number[] = [];
  for (let index = 0; index < 3; index += 1) {
    const started = performance.now();
    const last: unknown[] = [];
    for await (const event of store.readRun(runId, { after: 0 })) {
      if ((event.seq ?? 0) > after) last.push(event);
    }
    fullTimes.push(performance.now() - started);
    if (last.length !== 10) throw new Error("the full read did not end with 10 events");
  }
  const tail = median(tailTimes);
  const full = median(fullTimes);
  console.log(`read the last 10 events of a ${whole(events)}-event log (${fixed(size / 1e6, 0)} MB, written in ${fixed(generateMs / 1000, 1)} s)`);
  console.log(`  readRun(after = N-10)        ${fixed(tail, 3).padStart(10)} ms  (median of ${TAIL_REPEATS})`);
  console.log(`  whole log, keep the last 10  ${fixed(full, 1).padStart(10)} ms  (median of 3)`);
  console.log(`  ratio whole / readRun: ${whole(full / tail)}x faster   (aim >= 20x)`);
} finally {
  await cleanup();
}
