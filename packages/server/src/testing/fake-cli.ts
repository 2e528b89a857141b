// A stand-in for `baton run … --json`, for the server's start tests: behaves by the task.
//   task "fail: MESSAGE"  → "baton: MESSAGE" on stderr, exit 2
//   task "hang"           → prints nothing for a long time
//   otherwise             → creates a run in ./.baton and prints its run.created, then completes it
import { join } from "node:path";
import { openStore } from "@baton/engine/store";

const args = process.argv.slice(2);
const task = args[args.indexOf("--") + 1] ?? "";
const agent = args[args.indexOf("--agent") + 1] ?? "";
if (task.startsWith("fail: ")) {
  process.stderr.write(`baton: ${task.slice(6)}: fix it\nmore detail\n`);
  process.exit(2);
}
if (task === "hang") await new Promise((resolve) => setTimeout(resolve, 60_000));
await using store = await openStore(join(process.cwd(), ".baton"));
const writer = await store.createRun({ task, agent, repo: { root: process.cwd(), dirty: false } });
writer.subscribe((event) => {
  if (event.seq !== undefined) process.stdout.write(`${JSON.stringify(event)}\n`);
});
writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "test" });
writer.append("log", { level: "info", message: JSON.stringify(args) });
writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
await writer.close();
