// Test fixture: takes a run's writer lock in a child process and keeps it until told.
// Usage: node hold-writer.ts <batonDir> <runId | new>
// Prints `ready <runId> <pid>` (or `locked <code>`), then reads commands from stdin:
// `append` appends a log event, `crash` exits without closing (the lock stays behind),
// `close` closes the writer and exits.
import { createInterface } from "node:readline";
import { isBatonError } from "../../../errors.ts";
import { openStore } from "../open-store.ts";

const [batonDir, target] = process.argv.slice(2);
if (batonDir === undefined || target === undefined) throw new Error("usage: hold-writer.ts <batonDir> <runId|new>");
const store = await openStore(batonDir);
let writer;
try {
  writer = target === "new" ? await store.createRun({ task: "held", agent: "fixture", repo: { root: "/", dirty: false } }) : await store.openWriter(target);
} catch (error) {
  if (!isBatonError(error)) throw error;
  process.stdout.write(`locked ${error.code}\n`);
  await store.close();
  process.exit(0);
}
if (target === "new") await writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "fixture" }).durable;
process.stdout.write(`ready ${writer.runId} ${process.pid}\n`);
for await (const command of createInterface({ input: process.stdin })) {
  if (command === "append") {
    await writer.append("log", { level: "info", message: "from the child" }).durable;
    process.stdout.write("appended\n");
  } else if (command === "crash") {
    process.exit(0);
  } else if (command === "close") {
    await writer.close();
    await store.close();
    process.exit(0);
  }
}
