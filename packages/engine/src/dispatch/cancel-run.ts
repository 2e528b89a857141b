import { definedFields } from "@baton/protocol/core";
import type { CancelRequest } from "../run/cancel-request.ts";
import type { PgStore } from "../store/pg/pg-store.ts";
import { DispatchQueue, type DispatchTiming } from "./dispatch-queue.ts";

/**
 * Cancels a run of a shared store from any machine. The request is recorded in the store
 * first (the worker holding the run sees it within about a heartbeat, at once through its
 * NOTIFY); a run still waiting in the queue is then taken from it and ended `run.cancelled`
 * here, its job removed, without a worker. Returns what happened.
 */
export async function cancelSharedRun(store: PgStore, runId: string, request: CancelRequest, options: { timing?: Partial<DispatchTiming> } = {}): Promise<"ended" | "asked"> {
  await store.requestCancel(runId, request);
  const writer = await store.takeQueuedRun(runId);
  if (writer === undefined) return "asked";
  try {
    const queue = await DispatchQueue.open(store.url, { supervise: false, ...definedFields({ timing: options.timing }) });
    let job;
    try {
      job = await queue.removeQueued(runId);
    } finally {
      await queue.stop();
    }
    const run = await store.getRun(runId);
    writer.append(
      "run.created",
      definedFields({ number: writer.number, task: run?.task ?? job?.task ?? "", agent: run?.agent ?? job?.agent ?? "", workflow: job?.workflow?.name, repo: { root: job?.remote ?? "", ...definedFields({ sha: job?.base, branch: job?.base_branch }), dirty: false } }),
    );
    writer.append("run.cancelled", definedFields({ by: request.by, reason: request.reason ?? "cancelled while it waited for a worker" }));
  } finally {
    await writer.close();
  }
  return "ended";
}
