import type pg from "pg";
import type { RunSummary } from "../contract/run-summary.ts";

const COLUMNS = "id, number::int AS number, status, task, agent, model, created_at, started_at, ended_at, pid, last_seq::int AS last_seq, committed_bytes::float8 AS committed_bytes";

type RunRow = Record<string, unknown> & { id: string; number: number; status: string; last_seq: number; committed_bytes: number };

/** The run catalog in `baton_runs`: the same summaries as the file store's index. */
export class PgCatalog {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async get(id: string): Promise<RunSummary | undefined> {
    return toSummary((await this.#pool.query<RunRow>(`SELECT ${COLUMNS} FROM baton_runs WHERE id = $1`, [id])).rows[0]);
  }

  async byNumber(number: number): Promise<RunSummary | undefined> {
    return toSummary((await this.#pool.query<RunRow>(`SELECT ${COLUMNS} FROM baton_runs WHERE number = $1`, [number])).rows[0]);
  }

  async inRange(from: string, to: string, limit: number): Promise<RunSummary[]> {
    const result = await this.#pool.query<RunRow>(`SELECT ${COLUMNS} FROM baton_runs WHERE id >= $1 AND id < $2 ORDER BY id LIMIT $3`, [from, to, limit]);
    return result.rows.map((row) => toSummary(row) as RunSummary);
  }

  async list(status?: string): Promise<RunSummary[]> {
    const result =
      status === undefined
        ? await this.#pool.query<RunRow>(`SELECT ${COLUMNS} FROM baton_runs ORDER BY number`)
        : await this.#pool.query<RunRow>(`SELECT ${COLUMNS} FROM baton_runs WHERE status = $1 ORDER BY number`, [status]);
    return result.rows.map((row) => toSummary(row) as RunSummary);
  }

  /** Adds a run with the next number, held by `owner` at epoch 1. */
  async register(id: string, createdAt: string, owner: string, leaseMs: number): Promise<number> {
    const result = await this.#pool.query<{ number: number }>(
      `INSERT INTO baton_runs (id, number, created_at, lease_owner, lease_epoch, lease_expires_at)
       VALUES ($1, nextval('baton_run_numbers'), $2, $3, 1, now() + $4 * interval '1 millisecond') RETURNING number::int AS number`,
      [id, createdAt, owner, leaseMs],
    );
    return (result.rows[0] as { number: number }).number;
  }
}

function toSummary(row: RunRow | undefined): RunSummary | undefined {
  if (row === undefined) return undefined;
  // In the order of RunSummary's fields, absent ones omitted (not null), as the file store gives them.
  const summary: Record<string, unknown> = {};
  for (const key of ["id", "number", "status", "task", "agent", "model", "created_at", "started_at", "ended_at", "pid", "last_seq", "committed_bytes"]) {
    if (row[key] !== null && row[key] !== undefined) summary[key] = row[key];
  }
  return summary as RunSummary;
}
