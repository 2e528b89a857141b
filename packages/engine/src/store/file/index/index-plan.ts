import fs from "node:fs/promises";
import { applyToCatalog, type CatalogPatch } from "@baton/protocol/core";
import type { BatchRow, FeedRows } from "./feed-rows.ts";
import { readLogRange, type OnMalformed } from "../log/log-range-reader.ts";
import type { RunCatalog } from "./run-catalog.ts";

/** Feed rows made by a rebuild or a reconcile hold at most this many events each. */
const PLANNED_BATCH_EVENTS = 1024;

/**
 * What indexing a stretch of a log will write: feed batches and catalog fields. Planned from
 * the file first (async, no transaction open), then applied in one short synchronous write
 * transaction: holding a transaction across awaits would let other code on the connection
 * run inside it.
 */
export type IndexPlan = {
  run: string;
  /** The committed frontier the plan starts from; applying checks that it has not moved. */
  fromBytes: number;
  toBytes: number;
  batches: Omit<BatchRow, "pos_first">[];
  patch: CatalogPatch;
  lastSeq: number;
  events: number;
};

export async function planLogRange(options: {
  run: string;
  file: string;
  fromBytes: number;
  toBytes: number;
  lastSeqBefore: number;
  onMalformed: OnMalformed;
}): Promise<IndexPlan> {
  const plan: IndexPlan = {
    run: options.run,
    fromBytes: options.fromBytes,
    toBytes: options.toBytes,
    batches: [],
    patch: {},
    lastSeq: options.lastSeqBefore,
    events: 0,
  };
  if (options.toBytes <= options.fromBytes) return plan;
  const handle = await fs.open(options.file, "r");
  try {
    let current: Omit<BatchRow, "pos_first"> | undefined;
    let previousEnd = options.fromBytes;
    for await (const { events, ends } of readLogRange(handle, options.fromBytes, options.toBytes, options)) {
      for (const [index, event] of events.entries()) {
        const end = ends[index] as number;
        if (event.seq === undefined) continue;
        if (current === undefined || current.count >= PLANNED_BATCH_EVENTS) {
          current = { run: options.run, seq_first: event.seq, count: 0, byte_offset: previousEnd, byte_length: 0 };
          plan.batches.push(current);
        }
        current.count += 1;
        current.byte_length = end - current.byte_offset;
        previousEnd = end;
        applyToCatalog(plan.patch, event);
        plan.lastSeq = event.seq;
        plan.events += 1;
      }
    }
  } finally {
    await handle.close();
  }
  return plan;
}

/** Writes a plan. Call inside a write transaction; `skip` is passed to the feed (see reconcile). */
export function applyPlan(catalog: RunCatalog, feed: FeedRows, plan: IndexPlan, skip: number): void {
  let first = true;
  for (const batch of plan.batches) {
    feed.add(batch, first ? skip : 0);
    first = false;
  }
  catalog.applyCommit(plan.run, plan.patch, plan.lastSeq, plan.toBytes);
}
