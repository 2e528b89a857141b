import type pg from "pg";
import type { CatalogPatch } from "@baton/protocol/core";

/** A writer's hold on a run: it may append while the run's lease names it with this epoch. */
export type Lease = { run: string; owner: string; epoch: number };

/**
 * One batch, fenced in the same statement: the run's row is locked only where this lease still
 * holds it (owner, epoch, not expired); the events are inserted, and the catalog updated, only
 * through that row. Inserts nothing when the lease is gone. A retried batch is a primary-key
 * conflict, never a duplicate.
 */
const APPEND_SQL = `
  WITH lease AS (
    SELECT id FROM baton_runs
    WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 AND lease_expires_at > now()
    FOR UPDATE
  ), ins AS (
    INSERT INTO baton_events (run_id, seq, epoch, body)
    SELECT lease.id, s.seq, $3, s.body FROM lease, unnest($4::bigint[], $5::text[]) AS s (seq, body)
    RETURNING 1
  ), upd AS (
    UPDATE baton_runs r SET
      status = coalesce($6, r.status),
      task = coalesce($7, r.task),
      agent = coalesce($8, r.agent),
      model = coalesce($9, r.model),
      created_at = coalesce($10, r.created_at),
      started_at = coalesce(r.started_at, $11),
      ended_at = CASE WHEN $12::boolean THEN $13 ELSE r.ended_at END,
      pid = coalesce($14, r.pid),
      last_seq = $15,
      committed_bytes = r.committed_bytes + $16
    FROM lease WHERE r.id = lease.id
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM ins)::int AS inserted`;

/** Appends one batch under `lease`; returns how many events were inserted (0: the lease is gone). */
export async function appendBatch(pool: pg.Pool | pg.PoolClient, lease: Lease, seqs: number[], bodies: string[], patch: CatalogPatch, bytes: number): Promise<number> {
  const result = await pool.query<{ inserted: number }>(APPEND_SQL, [
    lease.run,
    lease.owner,
    lease.epoch,
    seqs,
    bodies,
    patch.status ?? null,
    patch.task ?? null,
    patch.agent ?? null,
    patch.model ?? null,
    patch.created_at ?? null,
    patch.started_at ?? null,
    patch.ended_at !== undefined,
    patch.ended_at ?? null,
    patch.pid ?? null,
    seqs.at(-1) ?? 0,
    bytes,
  ]);
  return result.rows[0]?.inserted ?? 0;
}

/** After a lost connection: whether a batch was committed all the same (its rows are there with our epoch). */
export async function batchCommitted(pool: pg.Pool, lease: Lease, seqs: number[]): Promise<boolean> {
  const result = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM baton_events WHERE run_id = $1 AND seq = ANY($2::bigint[]) AND epoch = $3", [lease.run, seqs, lease.epoch]);
  return result.rows[0]?.n === seqs.length;
}

/** Extends the lease; false when it is no longer ours (taken, or expired: an expired lease is gone, as for an append). */
export async function renewLease(pool: pg.Pool, lease: Lease, leaseMs: number): Promise<boolean> {
  const result = await pool.query(
    "UPDATE baton_runs SET lease_expires_at = now() + $4 * interval '1 millisecond' WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3 AND lease_expires_at > now()",
    [lease.run, lease.owner, lease.epoch, leaseMs],
  );
  return result.rowCount === 1;
}

/** Gives the run up (only if the lease is still ours). */
export async function releaseLease(pool: pg.Pool, lease: Lease): Promise<void> {
  await pool.query("UPDATE baton_runs SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2 AND lease_epoch = $3", [lease.run, lease.owner, lease.epoch]);
}

/**
 * Takes a run's lease if it is free or expired, bumping its epoch. Returns the lease, or the
 * holder (owner, epoch) when another writer holds it; undefined when the run does not exist.
 */
export async function claimLease(pool: pg.Pool, run: string, owner: string, leaseMs: number): Promise<{ lease: Lease; previous: { owner: string | null; epoch: number } } | { held: { owner: string; epoch: number } } | undefined> {
  const result = await pool.query<{ epoch: string; previous_owner: string | null }>(
    `UPDATE baton_runs r SET lease_owner = $2, lease_epoch = r.lease_epoch + 1, lease_expires_at = now() + $3 * interval '1 millisecond'
     FROM (SELECT id, lease_owner AS previous_owner FROM baton_runs WHERE id = $1 FOR UPDATE) AS old
     WHERE r.id = old.id AND (r.lease_owner IS NULL OR r.lease_expires_at <= now())
     RETURNING r.lease_epoch AS epoch, old.previous_owner`,
    [run, owner, leaseMs],
  );
  const row = result.rows[0];
  if (row !== undefined) return { lease: { run, owner, epoch: Number(row.epoch) }, previous: { owner: row.previous_owner, epoch: Number(row.epoch) - 1 } };
  const holder = await pool.query<{ lease_owner: string | null; lease_epoch: string }>("SELECT lease_owner, lease_epoch FROM baton_runs WHERE id = $1", [run]);
  const held = holder.rows[0];
  if (held === undefined) return undefined;
  return { held: { owner: held.lease_owner ?? "", epoch: Number(held.lease_epoch) } };
}
