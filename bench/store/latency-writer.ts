// Child process of follow-latency.bench.ts: appends events stamped with their send time.
// Usage: node latency-writer.ts store <batonDir> <count> <intervalMs>
//        node latency-writer.ts raw <file> <count> <intervalMs>
// Prints `ready <runId|file>`, waits for a line on stdin, appends, prints `done`.
import fs from "node:fs";
import { createInterface } from "node:readline";
import { setTimeout as sleep } from "node:timers/promises";
import { openStore } from "@baton/engine/store";

const [mode, target, countText, intervalText] = process.argv.slice(2);
if (target === undefined || countText === undefined || intervalText === undefined) throw new Error("usage");
const count = Number(countText);
const intervalMs = Number(intervalText);
const stamp = () => performance.timeOrigin + performance.now();
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();

if (mode === "store") {
  await using store = await openStore(target);
  await using writer = await store.createRun();
  process.stdout.write(`ready ${writer.runId}\n`);
  await lines.next();
  for (let index = 0; index < count; index += 1) {
    writer.append("log", { level: "info", message: `event ${index}`, sent_at: stamp() });
    await sleep(intervalMs);
  }
  writer.append("run.completed", { status: "succeeded", usage: {}, active_ms: 1, duration_ms: 1 });
  await writer.flush();
} else {
  // Baseline: one line per event, written and fdatasync'd at once, nothing else.
  const fd = fs.openSync(target, "w");
  process.stdout.write(`ready ${target}\n`);
  await lines.next();
  for (let index = 0; index <= count; index += 1) {
    const last = index === count;
    fs.writeSync(fd, `${JSON.stringify({ seq: index + 1, type: last ? "end" : "log", sent_at: stamp() })}\n`);
    fs.fdatasyncSync(fd);
    if (!last) await sleep(intervalMs);
  }
  fs.closeSync(fd);
}
process.stdout.write("done\n");
process.exit(0);
