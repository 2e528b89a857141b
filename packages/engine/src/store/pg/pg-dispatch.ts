import type pg from "pg";

/**
 * The lease owner of a run that waits in the dispatch queue: no writer, never expiring, so
 * recovery leaves it alone and only a worker's `takeDispatchedRun` can claim it.
 */
export const QUEUED_OWNER = "queued";

/** Adds a run waiting for a worker: the next number, the task and agent in the catalog, no events yet. */
export async function registerQueuedRun(pool: pg.Pool, id: string, createdAt: string, fields: { task: string; agent: string; model?: string | undefined }): Promise<number> {
  const result = await pool.query<{ number: number }>(
    `INSERT INTO baton_runs (id, number, created_at, task, agent, model, lease_owner, lease_epoch, lease_expires_at, dispatched)
     VALUES ($1, nextval('baton_run_numbers'), $2, $3, $4, $5, $6, 0, 'infinity', true) RETURNING number::int AS number`,
    [id, createdAt, fields.task, fields.agent, fields.model ?? null, QUEUED_OWNER],
  );
  return (result.rows[0] as { number: number }).number;
}

/** Who held a run before a worker took it: the queue, a writer that released it, or one whose lease expired. */
export type PreviousHolder = { owner: string | null; epoch: number; lastSeq: number };

/**
 * A worker's claim of a dispatched run: taken from the queue, or from a holder whose lease has
 * expired (a lost worker), with a new epoch that fences that holder off. Undefined while a live
 * writer holds it; throws nothing for an unknown run (undefined too: `exists` false).
 */
export async function claimDispatchedRun(pool: pg.Pool, run: string, owner: string, leaseMs: number): Promise<{ epoch: number; number: number; previous: PreviousHolder } | { held: string } | undefined> {
  const result = await pool.query<{ epoch: string; number: string; previous_owner: string | null; previous_epoch: string; last_seq: string }>(
    `UPDATE baton_runs r SET lease_owner = $2, lease_epoch = r.lease_epoch + 1, lease_expires_at = now() + $3 * interval '1 millisecond'
     FROM (SELECT id, lease_owner AS previous_owner, lease_epoch AS previous_epoch FROM baton_runs WHERE id = $1 FOR UPDATE) AS old
     WHERE r.id = old.id AND (r.lease_owner IS NULL OR r.lease_owner = $4 OR r.lease_expires_at <= now())
     RETURNING r.lease_epoch AS epoch, r.number, old.previous_owner, old.previous_epoch, r.last_seq`,
    [run, owner, leaseMs, QUEUED_OWNER],
  );
  const row = result.rows[0];
  if (row !== undefined) return { epoch: Number(row.epoch), number: Number(row.number), previous: { owner: row.previous_owner, epoch: Number(row.previous_epoch), lastSeq: Number(row.last_seq) } };
  const holder = await pool.query<{ lease_owner: string | null }>("SELECT lease_owner FROM baton_runs WHERE id = $1", [run]);
  const held = holder.rows[0];
  return held === undefined ? undefined : { held: held.lease_owner ?? "" };
}

/** A worker as `baton workers` shows it. */
export type WorkerRow = { id: string; host: string; pid: number; labels: string[]; concurrency: number; started_at: string; heartbeat_at: string; runs: Array<{ id: string; number: number; status: string }> };

/** Records (or renews) a worker's row: its heartbeat. */
export async function beatWorker(pool: pg.Pool, worker: { id: string; host: string; pid: number; labels: readonly string[]; concurrency: number; leaseMs: number }): Promise<void> {
  await pool.query(
    `INSERT INTO baton_workers (id, host, pid, labels, concurrency, lease_ms) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), stopped_at = NULL`,
    [worker.id, worker.host, worker.pid, [...worker.labels], worker.concurrency, worker.leaseMs],
  );
}

/** A worker that stopped cleanly says so: it is no longer listed. */
export async function stopWorker(pool: pg.Pool, id: string): Promise<void> {
  await pool.query("UPDATE baton_workers SET stopped_at = now() WHERE id = $1", [id]);
}

/** The live workers (a heartbeat within their lease), with the runs whose lease each holds. */
export async function liveWorkers(pool: pg.Pool): Promise<WorkerRow[]> {
  const workers = await pool.query<Omit<WorkerRow, "runs">>(
    `SELECT id, host, pid, labels, concurrency, to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS started_at,
            to_char(heartbeat_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS heartbeat_at
     FROM baton_workers WHERE stopped_at IS NULL AND heartbeat_at > now() - lease_ms * interval '1 millisecond' ORDER BY started_at, id`,
  );
  const runs = await pool.query<{ id: string; number: number; status: string; lease_owner: string }>(
    "SELECT id, number::int AS number, status, lease_owner FROM baton_runs WHERE lease_owner = ANY($1::text[]) AND lease_expires_at > now() ORDER BY number",
    [workers.rows.map((worker) => worker.id)],
  );
  return workers.rows.map((worker) => ({ ...worker, runs: runs.rows.filter((run) => run.lease_owner === worker.id).map(({ id, number, status }) => ({ id, number, status })) }));
}

/** Whether a run was dispatched to workers: then a worker, not a reader, ends it when its worker is lost. */
export async function isDispatched(pool: pg.Pool, run: string): Promise<boolean> {
  const result = await pool.query<{ dispatched: boolean }>("SELECT dispatched FROM baton_runs WHERE id = $1", [run]);
  return result.rows[0]?.dispatched === true;
}

/** Takes a run still waiting in the queue (no worker ever claimed it), with a new epoch; undefined once a worker has it. */
export async function claimQueuedRun(pool: pg.Pool, run: string, owner: string, leaseMs: number): Promise<{ epoch: number; number: number } | undefined> {
  const result = await pool.query<{ epoch: string; number: string }>(
    `UPDATE baton_runs SET lease_owner = $2, lease_epoch = lease_epoch + 1, lease_expires_at = now() + $3 * interval '1 millisecond'
     WHERE id = $1 AND lease_owner = $4 RETURNING lease_epoch AS epoch, number`,
    [run, owner, leaseMs, QUEUED_OWNER],
  );
  const row = result.rows[0];
  return row === undefined ? undefined : { epoch: Number(row.epoch), number: Number(row.number) };
}
