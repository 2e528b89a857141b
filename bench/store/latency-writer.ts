// Child process of follow-latency.bench.ts: appends events stamped with their send time.
// Usage: node latency-writer.ts store <batonDir> <count> <intervalMs>
//        node latency-writer.ts raw <file> <count> <intervalMs>
//        node latency-writer.ts durable <file> <count> <intervalMs>   (also writes <file>.hint)
// Prints `ready <runId|file>`, waits for a line on stdin, appends, prints `done` (raw: first
// `fdatasync <JSON array of each fdatasync's ms>`).
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
} else if (mode === "durable") {
  // The durable floor: the least a follower of durable events needs. Lines are written off the
  // event loop through O_DSYNC, as the store writes its log (ADR 0024: one write that returns
  // once the bytes are on stable storage, the kernel's work of write + fdatasync in one call);
  // those that arrive meanwhile go out together in the next write, as group commit does. After
  // each write the durable size is rewritten in place in <file>.hint, whose change wakes the
  // reader. No index, no envelope, no frontier check.
  const { O_WRONLY, O_CREAT, O_TRUNC, O_DSYNC } = fs.constants;
  const fd = fs.openSync(target, O_WRONLY | O_CREAT | O_TRUNC | O_DSYNC);
  const hint = fs.openSync(`${target}.hint`, "w");
  process.stdout.write(`ready ${target}\n`);
  await lines.next();
  let pending: string[] = [];
  let size = 0;
  let syncing: Promise<void> | undefined;
  const drain = async () => {
    while (pending.length > 0) {
      const bytes = Buffer.from(pending.join(""));
      pending = [];
      await new Promise<void>((resolve, reject) => fs.write(fd, bytes, 0, bytes.byteLength, size, (error) => (error ? reject(error) : resolve())));
      size += bytes.byteLength;
      fs.writeSync(hint, String(size).padEnd(24), 0);
    }
    syncing = undefined;
  };
  for (let index = 0; index <= count; index += 1) {
    const last = index === count;
    pending.push(`${JSON.stringify({ seq: index + 1, type: last ? "end" : "log", sent_at: stamp() })}\n`);
    syncing ??= drain();
    if (!last) await sleep(intervalMs);
  }
  await syncing;
  fs.closeSync(hint);
  fs.closeSync(fd);
} else {
  // Baseline: one line per event, written and fdatasync'd at once, nothing else. Each
  // fdatasync is timed: the wait a durable follower has and this floor's reader does not.
  const fd = fs.openSync(target, "w");
  process.stdout.write(`ready ${target}\n`);
  await lines.next();
  const syncs: number[] = [];
  for (let index = 0; index <= count; index += 1) {
    const last = index === count;
    fs.writeSync(fd, `${JSON.stringify({ seq: index + 1, type: last ? "end" : "log", sent_at: stamp() })}\n`);
    const syncStarted = performance.now();
    fs.fdatasyncSync(fd);
    syncs.push(performance.now() - syncStarted);
    if (!last) await sleep(intervalMs);
  }
  fs.closeSync(fd);
  process.stdout.write(`fdatasync ${JSON.stringify(syncs)}\n`);
}
process.stdout.write("done\n");
process.exit(0);
