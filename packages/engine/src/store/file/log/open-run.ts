import fs from "node:fs";
import type { RunStatus } from "@baton/protocol/core";
import { HintFile } from "../follow/hint-file.ts";
import { writeTransaction } from "../index/index-db.ts";
import { applyPlan, planLogRange } from "../index/index-plan.ts";
import { runPaths } from "../layout.ts";
import { logOpenFlags } from "./log-file-system.ts";
import { repairTail, type TailCut, type TailState } from "./log-tail.ts";
import type { StoreContext } from "../store-context.ts";
import type { WriterState } from "./run-writer.ts";
import type { WriterLock } from "../lock/writer-lock.ts";

/** A run's log taken over by a lock holder: repaired, indexed up to its end, ready to write. */
export type OpenedRun = WriterState & { lastType: string | undefined; status: RunStatus; cut: TailCut | undefined };

/**
 * Opens a run's log under its lock: cuts a torn tail, then brings the index up to the end of
 * the log. The caller owns the result (and must close its fd and hint, or hand them to a
 * RunWriter); on failure everything opened here is closed, and the lock is left to the caller.
 */
export async function openLockedRun(context: StoreContext, runId: string, lock: WriterLock): Promise<OpenedRun> {
  const paths = runPaths(context.layout, runId);
  const fd = fs.openSync(paths.events, logOpenFlags(context.fileSystem), 0o644);
  try {
    const tail = repairTail(fd, paths.events, context.now);
    const { number, status, changed } = await reconcileIndex(context, runId, fd, tail);
    const commitHint = new HintFile(paths.commitHint);
    if (changed) {
      // Wake followers in other processes too: they read up to the new frontier.
      commitHint.touch(`seq ${tail.lastSeq} bytes ${tail.size}`);
      context.feedHint.touch("reconciled");
    }
    return { run: runId, number, fd, size: tail.size, lastSeq: tail.lastSeq, lock, commitHint, lastType: tail.lastType, status, cut: tail.cut };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/**
 * Makes the index agree with a repaired log whose lock we hold. The index is behind when a
 * writer died between its fsync and its index commit, or when an OS crash took back index
 * commits (index.db does not fsync each commit, see openIndexDb). The missing events are
 * synced (a dead writer's last bytes may still be only in the page cache) and indexed.
 *
 * Their feed positions start after a hole as wide as their count: if an OS crash took back
 * positions already handed to followers, those positions are never reused for other events.
 * A client resuming from such a lost position then sees some events again (detectable by
 * run and seq), never misses one.
 */
export async function reconcileIndex(
  context: StoreContext,
  runId: string,
  fd: number,
  tail: TailState,
): Promise<{ number: number; status: RunStatus; changed: boolean }> {
  const { catalog, feed } = context;
  let row = catalog.get(runId);
  let from = row?.committed_bytes ?? 0;
  let lastSeq = row?.last_seq ?? 0;
  const ahead = from > tail.size;
  if (ahead) {
    // The log was cut below what the index knew (a damaged committed line): index it afresh.
    from = 0;
    lastSeq = 0;
  }
  if (row !== undefined && from === tail.size) return { number: row.number, status: row.status, changed: false };
  if (from < tail.size) fs.fdatasyncSync(fd);
  const plan = await planLogRange({
    run: runId,
    file: runPaths(context.layout, runId).events,
    fromBytes: from,
    toBytes: tail.size,
    lastSeqBefore: lastSeq,
    onMalformed: context.onMalformed,
  });
  writeTransaction(context.db, () => {
    if (row === undefined) catalog.register(runId, plan.patch.created_at ?? context.now().toISOString(), plan.patch.number);
    if (ahead) {
      catalog.reset(runId);
      feed.forgetBeyond(runId, 0);
    }
    applyPlan(catalog, feed, plan, plan.events);
    row = catalog.get(runId);
  });
  if (row === undefined) throw new Error(`run ${runId} vanished from the index while it was reconciled`);
  context.bus.emit(runId);
  return { number: row.number, status: row.status, changed: true };
}
