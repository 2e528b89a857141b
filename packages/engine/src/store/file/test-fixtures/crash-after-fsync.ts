// Test fixture: a writer killed between a batch's fsync and its index commit.
// Usage: node crash-after-fsync.ts <batonDir> <committed> <lost>
// Appends <committed> events normally, prints `run <runId>`, then appends <lost> more and
// kills itself with SIGKILL as soon as their fsync returns: they are on disk, not indexed.
import { nodeLogFileSystem, type LogFileSystem } from "../log/log-file-system.ts";
import { openStore } from "../open-store.ts";

const [batonDir, committedText, lostText] = process.argv.slice(2);
if (batonDir === undefined || committedText === undefined || lostText === undefined) throw new Error("usage");
let crashArmed = false;
const fileSystem: LogFileSystem = {
  write: nodeLogFileSystem.write,
  async datasync(fd) {
    await nodeLogFileSystem.datasync(fd);
    if (crashArmed) process.kill(process.pid, "SIGKILL");
  },
};
const store = await openStore(batonDir, { fileSystem });
const writer = await store.createRun({ task: "crash", agent: "fixture", repo: { root: "/", dirty: false } });
writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "fixture" });
for (let index = 2; index < Number(committedText); index += 1) writer.append("log", { level: "info", message: `committed ${index}` });
await writer.flush();
process.stdout.write(`run ${writer.runId}\n`);
crashArmed = true;
for (let index = 0; index < Number(lostText); index += 1) writer.append("log", { level: "info", message: `lost ${index}` });
await writer.flush();
