// One durable write of a batch, two ways, on the same disk in the same run: a descriptor opened
// O_DSYNC (one write that returns once the bytes are durable: what a run's log uses) against
// write then fdatasync (two trips through libuv's thread pool, the second started only when
// the event loop has taken the first one's completion). Each way writes 20 batches of 400 KB;
// the two alternate 12 times, with the event loop idle and then busy (0.5 ms slices of work
// between turns, as a producer encoding bursts of events). Prints the median and quartiles of
// the time ratio two-call / O_DSYNC (above 1: O_DSYNC is faster); asserts nothing.
//   node bench/store/durable-write.bench.ts [--quick]
import fs from "node:fs";
import path from "node:path";
import { nodeLogFileSystem } from "@baton/engine/store";
import { fixed, median, percentile, quick } from "../measure.ts";
import { scratchBatonDir } from "./store-fixtures.ts";

const BATCH_BYTES = 400_000;
const BATCHES = 20;
const PAIRS = quick ? 4 : 12;
const batch = Buffer.alloc(BATCH_BYTES, 0x61);

let busy = false;
/** Keeps the event loop busy in 0.5 ms slices while `busy`. */
function spin(): void {
  if (!busy) return;
  const until = performance.now() + 0.5;
  while (performance.now() < until);
  setImmediate(spin);
}

async function writeBatches(file: string, dsync: boolean): Promise<number> {
  const { O_RDWR, O_CREAT, O_DSYNC } = fs.constants;
  const fd = fs.openSync(file, O_RDWR | O_CREAT | (dsync ? O_DSYNC : 0));
  const started = performance.now();
  for (let index = 0; index < BATCHES; index += 1) {
    await nodeLogFileSystem.write(fd, batch, index * BATCH_BYTES);
    if (!dsync) await nodeLogFileSystem.datasync(fd);
  }
  const ms = performance.now() - started;
  fs.closeSync(fd);
  fs.rmSync(file);
  return ms;
}

const { root, cleanup } = await scratchBatonDir();
try {
  console.log(`durable writes: ${BATCHES} batches of ${BATCH_BYTES.toLocaleString("en-US")} bytes per try, ${PAIRS} pairs of tries alternated`);
  for (const loop of ["idle", "busy"] as const) {
    busy = loop === "busy";
    spin();
    const ratios: number[] = [];
    const dsyncMs: number[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const one = await writeBatches(path.join(root, "dsync"), true);
      const two = await writeBatches(path.join(root, "two-calls"), false);
      dsyncMs.push(one);
      ratios.push(two / one);
    }
    busy = false;
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(`  event loop ${loop}: O_DSYNC ${fixed(median(dsyncMs) / BATCHES)} ms per batch; ratio two-call / O_DSYNC median ${fixed(median(ratios))}, quartiles ${fixed(percentile(sorted, 0.25))}–${fixed(percentile(sorted, 0.75))}`);
  }
} finally {
  busy = false;
  await cleanup();
}
