// Child process of follow-memory.bench.ts: the store's follower alone, without the CLI.
// Usage: node follow-to-end.ts <batonDir> <runId|-> : follows the run from 0 to its final
// event (or, with "-", only opens the store) and prints {"count", "ms"}. Its peak RSS is
// read by the parent (runMeasured).
import { openStore } from "@baton/engine/store";

const [batonDir, runId] = process.argv.slice(2);
if (batonDir === undefined || runId === undefined) throw new Error("usage: follow-to-end.ts <batonDir> <runId|->");
const started = performance.now();
let count = 0;
{
  await using store = await openStore(batonDir);
  if (runId !== "-") {
    for await (const event of store.followRun(runId)) count += event.seq === undefined ? 0 : 1;
  }
}
process.stdout.write(`${JSON.stringify({ count, ms: performance.now() - started })}\n`);
