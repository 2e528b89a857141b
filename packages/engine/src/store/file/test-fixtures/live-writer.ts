// Test fixture: a run's writer in another process that publishes deltas when told.
// Usage: node live-writer.ts <batonDir>
// Creates a run, appends run.started, prints `run <runId>`, then reads commands from stdin:
//   `readers N`  waits until N processes read its live socket, prints `readers N`
//   `step`       appends the next log `m<i>`, publishes a delta `d<i>`, waits for the log to
//                be durable; prints `stepped <lastSeq>`. One at a time: the test sends the next
//                once its reader has the delta, so no delta races the log event after it.
//   `flood N`    publishes N deltas of 1 KiB in bursts of 64 (yielding between bursts), then
//                appends a log and waits for it; prints `flooded <readers left> <lastSeq>`
//   `crash`      SIGKILLs itself (lock and socket stay behind)
//   `close`      appends run.completed, closes, prints `closed`, exits
import { createInterface } from "node:readline";
import { setImmediate as yieldToLoop, setTimeout as sleep } from "node:timers/promises";
import { openStore } from "../open-store.ts";

const [batonDir] = process.argv.slice(2);
if (batonDir === undefined) throw new Error("usage: live-writer.ts <batonDir>");
const store = await openStore(batonDir);
const writer = await store.createRun({ task: "live", agent: "fixture", repo: { root: "/", dirty: false } });
await writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "fixture" }).durable;
process.stdout.write(`run ${writer.runId}\n`);
const delta = (text: string) => writer.publish("agent.delta", { session: "ses_fixture", kind: "text", text });
let stepped = 0;

for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.split(" ");
  const count = Number(argument ?? "0");
  if (command === "readers") {
    while (writer.liveReaderCount < count) await sleep(10);
    process.stdout.write(`readers ${writer.liveReaderCount}\n`);
  } else if (command === "step") {
    stepped += 1;
    const event = writer.append("log", { level: "info", message: `m${stepped}` });
    delta(`d${stepped}`);
    await event.durable;
    process.stdout.write(`stepped ${writer.lastSeq}\n`);
  } else if (command === "flood") {
    const text = "x".repeat(1024);
    for (let index = 1; index <= count; index += 1) {
      delta(text);
      if (index % 64 === 0) await yieldToLoop();
    }
    await writer.append("log", { level: "info", message: "after the flood" }).durable;
    process.stdout.write(`flooded ${writer.liveReaderCount} ${writer.lastSeq}\n`);
  } else if (command === "crash") {
    process.kill(process.pid, "SIGKILL");
  } else if (command === "close") {
    writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
    await writer.close();
    await store.close();
    process.stdout.write("closed\n");
    process.exit(0);
  }
}
