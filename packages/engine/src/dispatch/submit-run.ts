import { BatonError } from "../errors.ts";
import type { RunStore } from "../store/contract/run-store.ts";
import type { PgStore } from "../store/pg/pg-store.ts";
import { DispatchQueue, type DispatchTiming } from "./dispatch-queue.ts";
import type { RunJob } from "./run-job.ts";
import { definedFields } from "@baton/protocol/core";

/** A PostgreSQL store can dispatch runs to workers; the embedded one cannot (it lives on one machine). */
export function dispatchingStore(store: RunStore): PgStore | undefined {
  return "queueRun" in store ? (store as PgStore) : undefined;
}

/**
 * Enqueues a run for the workers: its number and catalog row first (so `baton runs` and
 * `baton events` know it at once), then its job. A job that cannot be queued leaves no
 * orphan: the run is created and failed.
 */
export async function submitRun(store: RunStore, job: Omit<RunJob, "run" | "number">, options: { timing?: Partial<DispatchTiming> } = {}): Promise<{ runId: string; number: number; jobId: string }> {
  const pg = dispatchingStore(store);
  if (pg === undefined) {
    throw new BatonError("dispatch_needs_shared_store", "runs are dispatched to workers only through a shared store", {
      hint: "pass --store postgres://… (or set BATON_STORE, or [store] url), with `baton worker` running against it",
    });
  }
  const queue = await DispatchQueue.open(pg.url, { supervise: false, ...definedFields({ timing: options.timing }) });
  try {
    const { runId, number } = await pg.queueRun({ task: job.task, agent: job.agent, model: typeof job.options["model"] === "string" ? job.options["model"] : undefined });
    try {
      const jobId = await queue.enqueue({ ...job, run: runId, number });
      return { runId, number, jobId };
    } catch (error) {
      const taken = await pg.takeDispatchedRun(runId);
      if ("writer" in taken) {
        taken.writer.append("run.created", { number, task: job.task, agent: job.agent, repo: { root: job.remote, sha: job.base, dirty: false } });
        taken.writer.append("run.failed", { error: { code: "dispatch_failed", message: `the run could not be queued: ${(error as Error).message}` } });
        await taken.writer.close();
      }
      throw error;
    }
  } finally {
    await queue.stop();
  }
}
