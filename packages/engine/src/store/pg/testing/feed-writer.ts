// Test fixture: one writer process of the feed-correctness test. Appends to `runs` runs at
// once, in batches, each batch's transaction held open a random 0-`maxDelayMs` ms before it
// commits, so that transactions commit in another order than they began.
// Usage: node feed-writer.ts <url> <batonDir> <runs> <eventsPerRun> <maxDelayMs>
// Prints `done` when every event is durable.
import { setTimeout as sleep } from "node:timers/promises";
import { openPgStore } from "../open-pg-store.ts";

const [url, batonDir, runs, perRun, maxDelay] = process.argv.slice(2);
if (url === undefined || batonDir === undefined) throw new Error("usage: feed-writer.ts <url> <batonDir> <runs> <eventsPerRun> <maxDelayMs>");
const store = await openPgStore(url, batonDir, { beforeCommit: () => sleep(Math.random() * Number(maxDelay)), maxConnections: Number(runs) + 2 });
const writers = await Promise.all(Array.from({ length: Number(runs) }, () => store.createRun()));
await Promise.all(
  writers.map(async (writer) => {
    for (let n = 1; n <= Number(perRun); n += 1) {
      writer.append("log", { level: "info", message: `${n}` });
      if (n % 25 === 0) await writer.flush();
    }
    await writer.close();
  }),
);
await store.close();
process.stdout.write("done\n");
