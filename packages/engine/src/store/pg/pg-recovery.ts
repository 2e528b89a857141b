import { applyEvent, applyToOpenStarts, initialRunState, isFinalStatus, isFinalType, type Envelope, type OpenStarts } from "@baton/protocol/core";
import type { RecoveredRun } from "../contract/run-store.ts";
import { runNotFound } from "../contract/run-ref.ts";
import { interruptedEnds } from "../file/recovery/interrupted-ends.ts";
import { claimLease, releaseLease } from "./pg-append.ts";
import type { PgCatalog } from "./pg-catalog.ts";
import { isDispatched } from "./pg-dispatch.ts";
import type { PgContext } from "./pg-context.ts";
import { readPgRun } from "./pg-read.ts";
import { PgRunWriter } from "./pg-run-writer.ts";

/**
 * Ends a run whose writer is gone: no final event, not paused, not dispatched to workers, and its lease free or expired.
 * Takes the lease (a new epoch: the dead writer, should it wake, is fenced off), closes every
 * start the log leaves open and appends `run.failed` (`interrupted`), as the file store does.
 */
export async function recoverPgRun(context: PgContext, catalog: PgCatalog, runId: string, dirOf: (runId: string) => string): Promise<RecoveredRun | undefined> {
  const known = await catalog.get(runId);
  if (known === undefined) throw runNotFound(runId);
  if (isFinalStatus(known.status) || known.status === "paused") return undefined;
  // A dispatched run's lost worker is a worker's to handle: it records worker.lost (the queue retries the run's job).
  if (await isDispatched(context.pool, runId)) return undefined;
  const claim = await claimLease(context.pool, runId, context.owner, context.leaseMs);
  if (claim === undefined) throw runNotFound(runId);
  if ("held" in claim) return undefined;
  const state = initialRunState();
  const starts: OpenStarts = new Map();
  let last: Envelope | undefined;
  let run;
  try {
    for await (const event of readPgRun(context.pool, catalog, runId)) {
      applyEvent(state, event);
      applyToOpenStarts(starts, event);
      last = event;
    }
    run = await catalog.get(runId);
  } catch (error) {
    await releaseLease(context.pool, claim.lease);
    throw error;
  }
  if ((last !== undefined && isFinalType(last.type)) || run === undefined || run.status === "paused") {
    await releaseLease(context.pool, claim.lease);
    return undefined;
  }
  const writer = new PgRunWriter(context, { lease: claim.lease, number: run.number, lastSeq: run.last_seq, dir: dirOf(runId) }, () => {});
  const pid = run.pid;
  const message = `the process writing this run stopped before the run ended (pid ${pid ?? "unknown"})`;
  let event: Envelope | undefined;
  try {
    for (const end of interruptedEnds([...starts.values()], state.sessions, message, context.nowMs())) event = writer.append(end.type, end.data, end.stage);
  } finally {
    await writer.close();
  }
  return { event: event as Envelope, pid };
}
