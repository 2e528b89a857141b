import fs, { type FileHandle } from "node:fs/promises";
import { isFinalStatus, isFinalType, type Envelope } from "@baton/protocol/core";
import { CommitWaker } from "./commit-waker.ts";
import { runPaths } from "../layout.ts";
import { readLogRange } from "../log/log-range-reader.ts";
import { seekAfterSeq } from "../log/log-seek.ts";
import type { RecoveryOutcome } from "../recovery/recovery.ts";
import { runNotFound } from "../resolve-run.ts";
import type { StoreContext } from "../store-context.ts";

import type { ReadRunOptions, FollowRunOptions } from "../../contract/reading.ts";
export type { ReadRunOptions, FollowRunOptions };

/** New bytes up to this much are read synchronously by a follower (one read of the page cache). */
const SYNC_READ_BYTES = 64 * 1024;

/** How often an idle follower checks whether the run's writer is still alive. */
const ABANDONED_CHECK_MS = 1000;

/**
 * The durable events of a run with seq > `after`, up to its committed frontier now. Starts
 * with a binary search of the log for `after` (see seekAfterSeq) and streams from there.
 */
export async function* readRun(context: StoreContext, runId: string, options: ReadRunOptions = {}): AsyncGenerator<Envelope> {
  const run = context.catalog.get(runId);
  if (run === undefined) throw runNotFound(runId);
  const after = options.after ?? 0;
  if (run.committed_bytes === 0 || after >= run.last_seq) return;
  const file = runPaths(context.layout, runId).events;
  const handle = await fs.open(file, "r");
  try {
    const start = await seekAfterSeq(handle, after, run.committed_bytes);
    const reader = readLogRange(handle, start, run.committed_bytes, { file, onMalformed: options.onMalformed ?? context.onMalformed });
    for await (const { events } of reader) {
      for (const event of events) if ((event.seq ?? 0) > after) yield event;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Every durable event of a run with seq > `after`, exactly once and in order, then the new
 * ones as they are committed; ends after the run's final event or when `signal` aborts.
 *
 * Only bytes below the committed frontier are read: the run's `committed_bytes` in the
 * index, which the writer updates after each fsync. The file's size would include bytes
 * written but not yet synced. Wake-ups come from the in-process bus, from `fs.watch` of the
 * run's hint file (other processes), and from polling as a fallback. Memory stays bounded:
 * the log is streamed, never held.
 */
export async function* followRun(
  context: StoreContext,
  runId: string,
  options: FollowRunOptions,
  recover: (runId: string) => Promise<RecoveryOutcome>,
): AsyncGenerator<Envelope> {
  if (context.catalog.get(runId) === undefined) throw runNotFound(runId);
  const { signal } = options;
  const paths = runPaths(context.layout, runId);
  const onMalformed = options.onMalformed ?? context.onMalformed;
  using waker = new CommitWaker({ hintPath: paths.commitHint, bus: context.bus, busKey: runId, signal, pollMs: context.pollMs });
  let cursor = options.after ?? 0;
  let handle: FileHandle | undefined;
  let offset: number | undefined;
  let lastCheck = performance.now();
  try {
    while (!isAborted(signal)) {
      const run = context.catalog.get(runId);
      if (run === undefined) throw runNotFound(runId);
      if (handle === undefined || offset === undefined) {
        handle = await fs.open(paths.events, "r");
        offset = await seekAfterSeq(handle, cursor, run.committed_bytes);
      }
      if (run.committed_bytes > offset) {
        // A follower that keeps up reads a few lines per wake-up: read at once, not through the thread pool.
        const syncReads = run.committed_bytes - offset <= SYNC_READ_BYTES;
        for await (const { events } of readLogRange(handle, offset, run.committed_bytes, { file: paths.events, onMalformed, syncReads })) {
          for (const event of events) {
            if (event.seq === undefined || event.seq <= cursor) continue;
            cursor = event.seq;
            yield event;
            if (isFinalType(event.type) || isAborted(signal)) return;
          }
        }
        offset = run.committed_bytes;
        lastCheck = performance.now();
        continue;
      }
      // Caught up with a run that has ended: its final event is at or before the cursor.
      if (isFinalStatus(run.status)) return;
      if (options.recoverAbandoned !== false && run.status !== "paused" && performance.now() - lastCheck >= ABANDONED_CHECK_MS) {
        lastCheck = performance.now();
        await recover(runId);
        continue;
      }
      await waker.wait();
    }
  } finally {
    await handle?.close();
  }
}

/** A function, not `signal?.aborted`, so that TypeScript does not narrow it across awaits. */
export function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
