import fs from "node:fs";
import { open } from "node:fs/promises";
import { applyEvent, applyToOpenStarts, initialRunState, isFinalStatus, isFinalType, type Envelope, type OpenStarts } from "@baton/protocol/core";
import { interruptedEnds, INTERRUPTED_CODE, type PendingEvent } from "./interrupted-ends.ts";
import { runPaths } from "../layout.ts";
import { readLogRange } from "../log/log-range-reader.ts";
import { removeStaleEndpoint } from "../live/live-endpoint.ts";
import { openLockedRun } from "../log/open-run.ts";
import { RunWriter } from "../log/run-writer.ts";
import type { StoreContext } from "../store-context.ts";
import { tryAcquireWriterLock } from "../lock/writer-lock.ts";

/** What `recoverIfAbandoned` found. Only "recovered" changed the log. */
export type RecoveryOutcome =
  | { kind: "recovered"; event: Envelope; pid: number | undefined }
  | { kind: "ended" }
  | { kind: "paused" }
  | { kind: "writer_alive"; pid: number; host: string };

export { INTERRUPTED_CODE };

/**
 * Ends a run whose writer is gone. If the run has no final event, is not paused (a paused
 * run waits for a resume, on purpose without a writer), and its lock is absent or stale:
 * take the lock, cut a torn tail, bring the index up to the log, close every start the log
 * leaves open (a tool call, turn or agent session the writer died in: see interruptedEnds),
 * append one `run.failed` with error code `interrupted`, and release. Idempotent: once the run has a final event this
 * does nothing. A run that never got `run.started` is abandoned just the same.
 */
export async function recoverIfAbandoned(context: StoreContext, runId: string): Promise<RecoveryOutcome> {
  const known = context.catalog.get(runId);
  if (known !== undefined && isFinalStatus(known.status)) return { kind: "ended" };
  const attempt = tryAcquireWriterLock(runPaths(context.layout, runId), context.identity, context.now().toISOString());
  if (attempt.kind === "held") return { kind: "writer_alive", pid: attempt.holder.pid, host: attempt.holder.host };
  let opened;
  try {
    opened = await openLockedRun(context, runId, attempt.lock);
  } catch (error) {
    attempt.lock.release();
    throw error;
  }
  if (isFinalType(opened.lastType ?? "") || opened.status === "paused") {
    fs.closeSync(opened.fd);
    opened.commitHint.close();
    attempt.lock.release();
    return opened.status === "paused" && !isFinalType(opened.lastType ?? "") ? { kind: "paused" } : { kind: "ended" };
  }
  const pid = attempt.replaced?.pid ?? context.catalog.get(runId)?.pid;
  const writer = new RunWriter(context, opened);
  let ends: PendingEvent[];
  try {
    const message = `the process writing this run stopped before the run ended (pid ${pid ?? "unknown"})`;
    ends = await endsOfLog(context, runId, opened.size, message);
  } catch (error) {
    await writer.close();
    throw error;
  }
  let event: Envelope | undefined;
  for (const end of ends) event = writer.append(end.type, end.data, end.stage);
  await writer.close();
  // The dead writer's live socket, if it left one: nobody will listen on it again.
  removeStaleEndpoint(writer.dir);
  // A writer killed outright could not end its agent's processes: they work for a run that has
  // ended. The lock was this host's (another host's is never taken over), and so are they.
  // Loaded only now: a follower that never recovers a run does not load the process-tree code (nor node:crypto).
  const { killRunLeftovers } = await import("../../../process-tree/agent-tree-tag.ts");
  killRunLeftovers(runId, attempt.replaced?.start_time ?? undefined);
  return { kind: "recovered", event: event as Envelope, pid };
}

/** Folds the log up to `size` and returns the events that end it (see interruptedEnds). */
async function endsOfLog(context: StoreContext, runId: string, size: number, message: string): Promise<PendingEvent[]> {
  const state = initialRunState();
  const starts: OpenStarts = new Map();
  const file = runPaths(context.layout, runId).events;
  const handle = await open(file, "r");
  try {
    for await (const { events } of readLogRange(handle, 0, size, { file, onMalformed: context.onMalformed })) {
      for (const event of events) {
        applyEvent(state, event);
        applyToOpenStarts(starts, event);
      }
    }
  } finally {
    await handle.close();
  }
  return interruptedEnds([...starts.values()], state.sessions, message, context.nowMs());
}
