import { mkdir, writeFile } from "node:fs/promises";
import { Writable } from "node:stream";
import { join, resolve } from "node:path";
import { DispatchWorker, dispatchingStore, dispatchTimingFrom, type RunExecutor } from "@baton/engine/dispatch";
import { BatonError } from "@baton/engine/errors";
import { openStore } from "@baton/engine/store";
import { EXIT, type CliContext } from "../context.ts";
import { locateProject } from "../project.ts";
import { STORE_ENV } from "../project-store.ts";
import { visibleText } from "../render/terminal-text.ts";
import { runCommand, type RunOptions } from "./run.ts";
import { runWorkflowCommand } from "./run-workflow.ts";
import { continueWorkflow, jobWorkflowRef } from "./worker-workflow.ts";
import { definedFields } from "@baton/protocol/core";

export type WorkerFlags = {
  concurrency?: number;
  labels?: string[];
  /** The worker's folder: its clones, the runs' checkouts and local run files. */
  dir?: string;
  /** Milliseconds a run's lease lasts without a heartbeat. */
  lease?: number;
};

/**
 * `baton worker`: claims runs queued in the shared store (`baton submit`, `baton run
 * --detach`, `POST /api/runs`) and runs them here, `--concurrency` at a time, until stopped
 * (Ctrl-C or SIGTERM cancels the runs in hand). Workers share no file system: each clones the
 * runs' remotes into its own folder and pushes their branches back.
 */
export async function workerCommand(ctx: CliContext, flags: WorkerFlags): Promise<number> {
  const timing = dispatchTimingFrom(ctx.env);
  const url = ctx.env[STORE_ENV];
  if (url === undefined || url === "") {
    throw new BatonError("usage", "a worker needs the shared store it takes runs from", { hint: "pass --store postgres://user@host:5432/database (or set BATON_STORE)" });
  }
  const root = resolve(ctx.cwd, flags.dir ?? ".baton-worker");
  const batonDir = join(root, ".baton");
  await mkdir(join(batonDir, "runs"), { recursive: true });
  const opened = await openStore(batonDir, { url, ...definedFields({ leaseMs: flags.lease }) });
  const store = dispatchingStore(opened);
  if (store === undefined) throw new BatonError("usage", "a worker takes runs only from a PostgreSQL store", { hint: "pass --store postgres://…" });
  const concurrency = flags.concurrency ?? 1;
  const labels = flags.labels ?? [];
  const log = (line: string) => ctx.stdout.write(`${new Date().toISOString()} ${visibleText(line)}\n`);
  const execute: RunExecutor = async (job, place) => {
    let script: string | undefined;
    if (job.script !== undefined) {
      script = join(root, "scripts", `${job.run}.json`);
      await mkdir(join(root, "scripts"), { recursive: true });
      await writeFile(script, JSON.stringify(job.script));
    }
    const options: RunOptions = { ...(job.options as RunOptions), agent: job.agent, ...definedFields({ script }), yes: true, hints: false };
    const runCtx: CliContext = { cwd: place.checkout, env: ctx.env, stdout: discard(), stderr: ctx.stderr, signal: place.signal, stdoutClosed: new AbortController().signal, interactive: false };
    const project = locateProject(place.checkout);
    if (job.workflow === undefined) {
      await runCommand(runCtx, job.task, options, project, { store, writer: place.writer });
      return;
    }
    const workflow = await jobWorkflowRef(job.workflow, job.run, { checkout: place.checkout, root });
    if (place.resume !== undefined) return continueWorkflow(runCtx, await project, job, { writer: place.writer, workflow, script, resume: place.resume });
    await runWorkflowCommand(runCtx, job.task, { ...options, workflow, autoApprove: job.options["autoApprove"] === true }, project, { store, writer: place.writer });
  };
  const worker = new DispatchWorker({ store, root, labels, concurrency, execute, log, signal: ctx.signal, timing });
  try {
    await worker.start();
    log(`worker ${worker.id} takes runs (${concurrency} at a time${labels.length === 0 ? "" : `, labels ${labels.join(", ")}`}) from ${store.eventsPath("").replace(/ \(run \)$/, "")}`);
    await new Promise<void>((done) => {
      if (ctx.signal.aborted) done();
      else ctx.signal.addEventListener("abort", () => done(), { once: true });
    });
    log("stopping: the runs in hand are cancelled");
  } finally {
    await worker.stop();
    await store.close();
  }
  return EXIT.succeeded;
}

/** A run's progress view has no reader in a worker: its events are in the store. */
function discard(): NodeJS.WriteStream {
  return new Writable({ write: (_chunk, _encoding, done) => done() }) as unknown as NodeJS.WriteStream;
}
