import type pg from "pg";
import { definedFields } from "@baton/protocol/core";
import type { CancelRequest } from "../../run/cancel-request.ts";

/** The channel a cancel request is announced on: the payload is the run id (a hint; workers also poll). */
export const CANCEL_CHANNEL = "baton_cancel";

/**
 * Records a request to cancel `run`, for whichever process holds it on any machine, and
 * announces it. The first request stands (a second changes nothing).
 */
export async function requestRunCancel(pool: pg.Pool, run: string, request: CancelRequest): Promise<void> {
  await pool.query(
    `WITH asked AS (INSERT INTO baton_cancel_requests (run_id, requested_by, reason) VALUES ($1, $2, $3) ON CONFLICT (run_id) DO NOTHING)
     SELECT pg_notify($4, $1)`,
    [run, request.by, request.reason ?? null, CANCEL_CHANNEL],
  );
}

/** The cancel requests recorded for any of `runs`. */
export async function cancelRequestsFor(pool: pg.Pool, runs: readonly string[]): Promise<Map<string, CancelRequest>> {
  if (runs.length === 0) return new Map();
  const result = await pool.query<{ run_id: string; requested_by: string; reason: string | null }>("SELECT run_id, requested_by, reason FROM baton_cancel_requests WHERE run_id = ANY($1::text[])", [[...runs]]);
  return new Map(result.rows.map((row) => [row.run_id, definedFields({ by: row.requested_by, reason: row.reason ?? undefined })]));
}
