import { applyEvent, applyToOpenStarts, initialRunState, type OpenStarts, type RunState } from "@baton/protocol/core";
import type { RunStore } from "../store/contract/run-store.ts";
import type { RunStoreWriter } from "../store/contract/run-store-writer.ts";
import { interruptedEnds } from "../store/file/recovery/interrupted-ends.ts";
import type { PreviousHolder } from "../store/pg/pg-dispatch.ts";

/** The error code of a run whose worker was lost: its attempt ends with it. */
export const WORKER_LOST_CODE = "worker_lost";

/** A checkpoint of the run's own walk, with the commit its branch was at (the last one before it when the stage changed nothing). */
export type CheckpointCommit = { seq: number; stage: string; commit: string | undefined };

/** A lost run's log, folded: its state, the starts the lost worker left open, its attempts and its checkpoints' commits. */
export type LostRunLog = { state: RunState; starts: OpenStarts; attempts: number; checkpoints: CheckpointCommit[] };

/** Reads a lost run's log once. */
export async function foldLostRun(store: RunStore, runId: string): Promise<LostRunLog> {
  const state = initialRunState();
  const starts: OpenStarts = new Map();
  const checkpoints: CheckpointCommit[] = [];
  let attempts = 0;
  let commit: string | undefined;
  for await (const event of store.readRun(runId)) {
    applyEvent(state, event);
    applyToOpenStarts(starts, event);
    if (event.type === "run.started") attempts += 1;
    if (event.type === "workspace.ready") commit ??= typeof event.data["base_sha"] === "string" ? event.data["base_sha"] : undefined;
    // A fan-out branch commits on a branch of its own; the run's branch moves at the fan-in.
    if (event.stage?.branch !== undefined) continue;
    if (event.type === "git.committed" && typeof event.data["sha"] === "string") commit = event.data["sha"];
    if (event.type === "checkpoint.saved") {
      if (typeof event.data["commit"] === "string") commit = event.data["commit"];
      checkpoints.push({ seq: event.seq ?? 0, stage: typeof event.data["stage"] === "string" ? event.data["stage"] : "", commit });
    }
  }
  return { state, starts, attempts, checkpoints };
}

/** Records that the run's worker was lost: who held it, at which epoch, up to which seq, and who took it over. */
export function recordWorkerLost(writer: RunStoreWriter, previous: PreviousHolder, owner: string, log?: LostRunLog): void {
  const event = writer.append("worker.lost", { previous_owner: previous.owner ?? "", epoch: previous.epoch, last_seq: previous.lastSeq, owner });
  if (log !== undefined) applyEvent(log.state, event);
}

/** The message of the attempt a lost worker left: why it ended, and what comes next. */
export function lostMessage(previous: PreviousHolder, next: string): string {
  return `the worker running this run (${previous.owner ?? "unknown"}) was lost: it stopped heartbeating and its lease expired; ${next}`;
}

/**
 * Ends the attempt a lost worker left open: an end for every start it left open, then
 * `run.failed` with code `worker_lost`. The appended events are folded into `log.state`.
 */
export function endLostAttempt(writer: RunStoreWriter, log: LostRunLog, message: string): void {
  for (const end of interruptedEnds([...log.starts.values()], log.state.sessions, message, Date.now())) {
    const event = end.type === "run.failed" ? writer.append("run.failed", { error: { code: WORKER_LOST_CODE, message } }) : writer.append(end.type, end.data, end.stage);
    applyEvent(log.state, event);
  }
}

/**
 * Ends a run whose worker was lost and that cannot continue elsewhere (a single-session run:
 * its agent's session was on the lost machine; a workflow run with no checkpoint on the
 * remote): `worker.lost`, the ends of what was left open, `run.failed` `worker_lost`.
 */
export async function endLostRun(store: RunStore, writer: RunStoreWriter, previous: PreviousHolder, owner: string, why = "a single-session run cannot continue on another machine"): Promise<void> {
  try {
    const log = await foldLostRun(store, writer.runId);
    recordWorkerLost(writer, previous, owner);
    endLostAttempt(writer, log, lostMessage(previous, why));
  } finally {
    await writer.close();
  }
}
