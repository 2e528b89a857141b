// Test and benchmark fixture: a writer in another process.
// Usage: node append-events.ts <batonDir> <count> [pauseEvery]
// Creates a run, prints `run <runId>`, appends run.started, <count> log events (yielding to
// the event loop every `pauseEvery` events so that batches stay small and followers see the
// run grow), then run.completed; prints `done <lastSeq>`.
import { setTimeout as sleep } from "node:timers/promises";
import { openStore } from "../open-store.ts";

const [batonDir, countText, pauseText] = process.argv.slice(2);
if (batonDir === undefined || countText === undefined) throw new Error("usage: append-events.ts <batonDir> <count> [pauseEvery]");
const count = Number(countText);
const pauseEvery = Number(pauseText ?? "5");
await using store = await openStore(batonDir);
await using writer = await store.createRun({ task: "appender", agent: "fixture", repo: { root: "/", dirty: false } });
process.stdout.write(`run ${writer.runId}\n`);
writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "fixture" });
for (let index = 1; index <= count; index += 1) {
  const event = writer.append("log", { level: "info", message: `event ${index}`, sent_at: performance.timeOrigin + performance.now() });
  if (index % pauseEvery === 0) {
    await event.durable;
    await sleep(1);
  }
}
writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
await writer.flush();
process.stdout.write(`done ${writer.lastSeq}\n`);
