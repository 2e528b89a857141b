// Child process of sse-fanout.bench.ts: `baton serve`'s server alone on a scratch store.
// Usage: node serve-child.ts <batonDir>   Prints `port <n>`; on a line on stdin, prints
// `followers <n> dropped <n>` and exits.
import { createInterface } from "node:readline";
import { openStore } from "@baton/engine/store";
import { startServer } from "@baton/server";

const [batonDir] = process.argv.slice(2);
if (batonDir === undefined) throw new Error("usage: serve-child.ts <batonDir>");
let followers = 0;
let dropped = 0;
const store = await openStore(batonDir);
const server = await startServer({
  store,
  projectRoot: batonDir,
  cliEntry: "/nonexistent",
  host: "127.0.0.1",
  port: 0,
  token: "bench-token-0123456789",
  hooks: { followerStarted: () => (followers += 1), clientDropped: () => (dropped += 1) },
});
process.stdout.write(`port ${server.port}\n`);
await createInterface({ input: process.stdin })[Symbol.asyncIterator]().next();
process.stdout.write(`followers ${followers} dropped ${dropped}\n`);
await server.close();
await store.close();
process.exit(0);
