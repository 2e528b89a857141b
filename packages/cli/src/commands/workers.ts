import { dispatchingStore } from "@baton/engine/dispatch";
import { BatonError } from "@baton/engine/errors";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { openProjectStore } from "../project-store.ts";
import { visibleText } from "../render/terminal-text.ts";

/** `baton workers`: the live workers of the shared store, the runs each holds, and their last heartbeat. */
export async function workersCommand(ctx: CliContext, options: { json?: boolean }): Promise<number> {
  const project = await locateProject(ctx.cwd).catch(() => ({ root: ctx.cwd, batonDir: `${ctx.cwd}/.baton` }));
  await using opened = await openProjectStore(ctx, project);
  const store = dispatchingStore(opened);
  if (store === undefined) throw new BatonError("usage", "workers take runs only from a shared store; this project uses the embedded one", { hint: "pass --store postgres://… (or set BATON_STORE)" });
  const workers = await store.workers();
  if (options.json === true) {
    for (const worker of workers) ctx.stdout.write(`${JSON.stringify(worker)}\n`);
    return EXIT.succeeded;
  }
  if (workers.length === 0) {
    ctx.stdout.write("no live workers (start one with baton worker --store URL)\n");
    return EXIT.succeeded;
  }
  const now = Date.now();
  ctx.stdout.write("WORKER                              CONCURRENCY  LABELS      HEARTBEAT  RUNS\n");
  for (const worker of workers) {
    const ago = `${Math.max(0, (now - Date.parse(worker.heartbeat_at)) / 1000).toFixed(1)}s ago`;
    const runs = worker.runs.length === 0 ? "-" : worker.runs.map((run) => `${run.number} (${run.status})`).join(", ");
    ctx.stdout.write(`${visibleText(worker.id).padEnd(36)}${String(worker.concurrency).padEnd(13)}${visibleText(worker.labels.join(",") || "-").padEnd(12)}${ago.padEnd(11)}${runs}\n`);
  }
  return EXIT.succeeded;
}
