// Child process of sse-fanout.bench.ts: one run, flooded with events stamped with their append time.
// Usage: node flood-writer.ts <batonDir> <count> [<eventsPerSecond>]
// Prints `ready <runId>`, waits for a line on stdin, appends `count` log events in bursts
// (yielding between bursts, so that group commit forms batches; with a rate, each burst waits
// for its time), then run.completed; prints `done`.
import { createInterface } from "node:readline";
import { setTimeout as sleep, setImmediate as yieldToLoop } from "node:timers/promises";
import { openStore } from "@baton/engine/store";

const [batonDir, countText, rateText] = process.argv.slice(2);
if (batonDir === undefined || countText === undefined) throw new Error("usage: flood-writer.ts <batonDir> <count>");
const count = Number(countText);
/** Events per second; none: as fast as the store takes them. */
const rate = rateText === undefined ? undefined : Number(rateText);
/** Events per burst: an agent streaming tool results, not one event per tick. */
const BURST = 100;
const stamp = () => performance.timeOrigin + performance.now();
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
const padding = "wrote 14 lines to src/components/button.tsx; tests pass (3 files, 12 cases) ".repeat(2);

const store = await openStore(batonDir);
const writer = await store.createRun({ task: "flood", agent: "bench", repo: { root: "/", dirty: false } });
writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "bench" });
await writer.flush();
process.stdout.write(`ready ${writer.runId}\n`);
await lines.next();
const began = performance.now();
for (let index = 0; index < count; index += 1) {
  writer.append("log", { level: "info", message: `${index} ${padding}`, sent_at: stamp() });
  if (index % BURST === BURST - 1) {
    const due = rate === undefined ? 0 : began + ((index + 1) / rate) * 1000 - performance.now();
    if (due > 0) await sleep(due);
    else if (writer.lastSeq - writer.committedSeq > 20 * BURST) await writer.flush();
    else await yieldToLoop();
  }
}
writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
await writer.close();
await store.close();
process.stdout.write("done\n");
// stdin (the go line's reader) would keep the process alive.
process.exit(0);
