import type pg from "pg";
import { isFinalStatus, isFinalType, type Envelope } from "@baton/protocol/core";
import { isAborted } from "../file/follow/read-run.ts";
import type { FollowRunOptions, ReadRunOptions } from "../contract/reading.ts";
import { runNotFound } from "../contract/run-ref.ts";
import type { PgCatalog } from "./pg-catalog.ts";
import { reconnecting } from "./pg-connect.ts";
import type { PgHints } from "./pg-hints.ts";

/** Events read per query: memory stays at one page whatever the run's length. */
const RUN_PAGE = 1_000;
/** How often an idle follower checks whether the run's writer is still alive. */
const ABANDONED_CHECK_MS = 1_000;

async function page(pool: pg.Pool, runId: string, after: number, until: number): Promise<Envelope[]> {
  const result = await pool.query<{ body: string }>("SELECT body FROM baton_events WHERE run_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4", [runId, after, until, RUN_PAGE]);
  return result.rows.map((row) => JSON.parse(row.body) as Envelope);
}

/** The run's events with seq > `after` and ≤ `until`, page by page. */
async function* pagesOf(pool: pg.Pool, runId: string, after: number, until: number): AsyncGenerator<Envelope> {
  let cursor = after;
  while (cursor < until) {
    const events = await page(pool, runId, cursor, until);
    if (events.length === 0) return;
    for (const event of events) {
      cursor = event.seq ?? cursor;
      yield event;
    }
  }
}

/** Every stored event of the run, in seq order (a writer's own log, read after it is closed too). */
export function readPgLog(pool: pg.Pool, runId: string): AsyncGenerator<Envelope> {
  return pagesOf(pool, runId, 0, Number.MAX_SAFE_INTEGER);
}

/** The run's events with seq > `after`, up to its last committed seq now. */
export async function* readPgRun(pool: pg.Pool, catalog: PgCatalog, runId: string, options: ReadRunOptions = {}): AsyncGenerator<Envelope> {
  const run = await catalog.get(runId);
  if (run === undefined) throw runNotFound(runId);
  yield* pagesOf(pool, runId, options.after ?? 0, run.last_seq);
}

export type PgFollowParts = { url: string; pool: pg.Pool; catalog: PgCatalog; hints: PgHints; pollMs: number; recover: (runId: string) => Promise<unknown> };

/**
 * The run's events with seq > `after`, exactly once and in order, then new ones as they are
 * committed (woken by NOTIFY or this process's commits, polling as the fallback); ends after
 * the final event or when `signal` aborts. A run has one writer, whose batches commit one after
 * another, so what is committed is always a gapless prefix of the run's seqs. Reads are tried
 * again through a lost connection (a server restart), the cursor where it was.
 */
export async function* followPgRun(parts: PgFollowParts, runId: string, options: FollowRunOptions = {}): AsyncGenerator<Envelope> {
  const { signal } = options;
  let cursor = options.after ?? 0;
  let lastCheck = performance.now();
  if ((await parts.catalog.get(runId)) === undefined) throw runNotFound(runId);
  while (!isAborted(signal)) {
    const after = cursor;
    const events = await reconnecting(parts.url, () => page(parts.pool, runId, after, Number.MAX_SAFE_INTEGER));
    for (const event of events) {
      cursor = event.seq ?? cursor;
      yield event;
      if (isFinalType(event.type) || isAborted(signal)) return;
    }
    if (events.length > 0) {
      lastCheck = performance.now();
      continue;
    }
    const run = await reconnecting(parts.url, () => parts.catalog.get(runId));
    if (run === undefined) throw runNotFound(runId);
    if (isFinalStatus(run.status) && run.last_seq <= cursor) return;
    if (options.recoverAbandoned !== false && run.status !== "paused" && performance.now() - lastCheck >= ABANDONED_CHECK_MS) {
      lastCheck = performance.now();
      await reconnecting(parts.url, () => parts.recover(runId));
      continue;
    }
    await parts.hints.wait(runId, parts.pollMs, signal);
  }
}
