// Test fixture: a writer in a child process that starts a run, opens a tool call, and waits to be killed.
// Usage: node dead-writer.ts <batonDir> <store url or ""> <leaseMs>
// Prints `ready <runId>` once its events are durable.
import { openStore } from "../../open-store.ts";

const [batonDir, url, leaseMs] = process.argv.slice(2);
if (batonDir === undefined) throw new Error("usage: dead-writer.ts <batonDir> <url> <leaseMs>");
const store = await openStore(batonDir, { url: url ?? "", leaseMs: Number(leaseMs) || 600 });
const writer = await store.createRun({ task: "dies", agent: "fixture", repo: { root: "/", dirty: false } });
const session = "ses_1";
writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "fixture" });
writer.append("agent.started", { session, agent: "fake", protocol_version: 1 });
writer.append("tool.started", { session, call: "c_1", tool: "run", kind: "execute" });
await writer.flush();
process.stdout.write(`ready ${writer.runId}\n`);
setInterval(() => {}, 60_000);
