import fs from "node:fs";
import { readMeta, writeMeta, writeTransaction } from "./index-db.ts";
import { applyPlan, planLogRange, type IndexPlan } from "./index-plan.ts";
import { runPaths } from "../layout.ts";
import { inspectTail } from "../log/log-tail.ts";
import { listRunDirs } from "./reconcile-all.ts";
import type { StoreContext } from "../store-context.ts";

/**
 * Builds index.db from the logs when it is new (deleted, or never built): runs get back their
 * numbers from `run.created.number` (a run without one gets the next free number, in id
 * order), statuses come from their events, and every complete event gets a feed position:
 * run after run in id order, each run's events in seq order. Torn tails are left alone (no
 * lock is taken): the next writer or recovery of that run cuts them.
 *
 * Positions handed out by a deleted index are not known any more; `feed_epoch` changes so
 * that a server can tell its clients to start over. Deleting index.db while a writer is
 * running is not supported: that writer keeps committing to the deleted file.
 *
 * Returns false when another process built the index first (its build is kept).
 */
export async function rebuildIfNeeded(context: StoreContext): Promise<boolean> {
  if (readMeta(context.db, "built_at") !== undefined) return false;
  // Loaded here, not at the top: it brings in node:crypto, which a store that needs no rebuild never loads.
  const { decodeTime } = await import("ulid");
  const plans: IndexPlan[] = [];
  for (const runId of listRunDirs(context.layout.runsDir)) {
    const file = runPaths(context.layout, runId).events;
    let fd: number;
    try {
      fd = fs.openSync(file, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    let size: number;
    try {
      size = inspectTail(fd).size;
    } finally {
      fs.closeSync(fd);
    }
    plans.push(await planLogRange({ run: runId, file, fromBytes: 0, toBytes: size, lastSeqBefore: 0, onMalformed: context.onMalformed }));
  }
  return writeTransaction(context.db, () => {
    if (readMeta(context.db, "built_at") !== undefined) return false;
    // Numbers written in the logs first, so that a run without one cannot take another's.
    for (const plan of plans) if (plan.patch.number !== undefined) register(context, plan, decodeTime);
    for (const plan of plans) if (plan.patch.number === undefined) register(context, plan, decodeTime);
    for (const plan of plans) applyPlan(context.catalog, context.feed, plan, 0);
    writeMeta(context.db, "built_at", context.now().toISOString());
    writeMeta(context.db, "feed_epoch", crypto.randomUUID());
    return true;
  });
}

function register(context: StoreContext, plan: IndexPlan, decodeTime: (ulid: string) => number): void {
  const createdAt = plan.patch.created_at ?? new Date(decodeTime(plan.run.slice("run_".length))).toISOString();
  context.catalog.register(plan.run, createdAt, plan.patch.number);
}
