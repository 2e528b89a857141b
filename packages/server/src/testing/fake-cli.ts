// A stand-in for the `baton` children the server starts, for its tests: behaves by its input.
// `baton run … --json`, by the task:
//   task "fail: MESSAGE"  → "baton: MESSAGE" on stderr, exit 2
//   task "hang"           → prints nothing for a long time
//   otherwise             → creates a run in ./.baton and prints its run.created, then completes it
// `baton approve|reject|answer … -- RUN [ANSWER] --json`, by the comment:
//   "--comment=fail: MESSAGE" → "baton: MESSAGE" on stderr, exit 2
//   otherwise             → reopens RUN, prints its new run.started, logs its arguments, closes the
//                           gate's stage visit it waited at, completes it
import { join } from "node:path";
import { openStore, type RunStoreWriter } from "@baton/engine/store";
import { foldRun, openStages, type Envelope } from "@baton/protocol/core";

const args = process.argv.slice(2);
const command = args[0];
const afterDashes = args.slice(args.indexOf("--") + 1);
const refusal = command === "run" ? /^fail: (.*)$/.exec(afterDashes[0] ?? "") : /^--comment=fail: (.*)$/.exec(args.find((arg) => arg.startsWith("--comment=")) ?? "");
if (refusal !== null) {
  process.stderr.write(`baton: ${refusal[1] ?? ""}: fix it\nmore detail\n`);
  process.exit(2);
}
if (command === "run" && afterDashes[0] === "hang") await new Promise((resolve) => setTimeout(resolve, 60_000));
await using store = await openStore(join(process.cwd(), ".baton"));
let writer: RunStoreWriter;
/** The gate visit a paused run waits at: like the real CLI, the answer closes it before the run ends. */
let waiting: ReturnType<typeof openStages> = [];
if (command === "run") {
  const agent = args[args.indexOf("--agent") + 1] ?? "";
  writer = await store.createRun({ task: afterDashes[0] ?? "", agent, repo: { root: process.cwd(), dirty: false } });
} else {
  const events: Envelope[] = [];
  for await (const event of store.readRun(afterDashes[0] ?? "")) events.push(event);
  waiting = openStages(foldRun(events).workflow);
  writer = await store.openWriter(afterDashes[0] ?? "");
}
writer.subscribe((event) => {
  if (event.seq !== undefined) process.stdout.write(`${JSON.stringify(event)}\n`);
});
writer.append("run.started", { attempt: command === "run" ? 1 : 2, resumed: command !== "run", pid: process.pid, host: "test" });
writer.append("log", { level: "info", message: JSON.stringify(args) });
for (const visit of waiting) {
  const scope = { id: visit.stage, visit: visit.visit };
  writer.append("approval.resolved", { gate: visit.stage, approved: true, by: "test", via: "api" }, scope);
  writer.append("stage.completed", { stage: visit.stage, visit: visit.visit, outcome: "succeeded", duration_ms: 0 }, scope);
}
writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
await writer.close();
