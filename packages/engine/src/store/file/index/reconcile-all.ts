import fs from "node:fs";
import { isFinalStatus, RUN_ID_PATTERN } from "@baton/protocol/core";
import { runPaths } from "../layout.ts";
import { openLockedRun } from "../log/open-run.ts";
import type { StoreContext } from "../store-context.ts";
import { tryAcquireWriterLock } from "../lock/writer-lock.ts";

/**
 * Brings the index up to the logs of every run that nobody is writing: runs whose log is
 * longer than their committed frontier (a writer died between fsync and index commit), and
 * run directories the index does not know yet (a creator died before registering it). A run
 * with a final status is complete in the index (nothing follows its final batch) and is not
 * looked at, so this costs one `stat` per unfinished run.
 *
 * A run whose lock is held is skipped: its live writer has bytes written but not yet synced,
 * which must not be indexed by anyone else.
 */
export async function reconcileAll(context: StoreContext): Promise<void> {
  const known = new Map(context.catalog.list().map((run) => [run.id, run]));
  for (const entry of listRunDirs(context.layout.runsDir)) {
    const run = known.get(entry);
    if (run !== undefined && isFinalStatus(run.status)) continue;
    const size = fileSize(runPaths(context.layout, entry).events);
    // Unknown and empty (or absent): a run being created right now, or nothing to recover.
    if (run === undefined ? size === undefined || size === 0 : size === run.committed_bytes) continue;
    const attempt = tryAcquireWriterLock(runPaths(context.layout, entry), context.identity, context.now().toISOString());
    if (attempt.kind === "held") continue;
    try {
      const opened = await openLockedRun(context, entry, attempt.lock);
      fs.closeSync(opened.fd);
      opened.commitHint.close();
    } finally {
      attempt.lock.release();
    }
  }
}

/** Names under runs/ that are run ids, in id (creation time) order. */
export function listRunDirs(runsDir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(runsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  return names.filter((name) => RUN_ID_PATTERN.test(name)).sort();
}

function fileSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
