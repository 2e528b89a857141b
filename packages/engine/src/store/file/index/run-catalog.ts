import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { CatalogPatch } from "@baton/protocol/core";

import type { RunSummary } from "../../contract/run-summary.ts";
export type { RunSummary };

type RunRow = {
  id: string;
  number: number;
  status: string;
  task: string | null;
  agent: string | null;
  model: string | null;
  created_at: string | null;
  started_at: string | null;
  ended_at: string | null;
  pid: number | null;
  last_seq: number;
  committed_bytes: number;
};

const COLUMNS = "id, number, status, task, agent, model, created_at, started_at, ended_at, pid, last_seq, committed_bytes";

/** The `runs` table of index.db. Statements are prepared once: the writer uses them per batch. */
export class RunCatalog {
  readonly #db: DatabaseSync;
  readonly #get: StatementSync;
  readonly #byNumber: StatementSync;
  readonly #byRange: StatementSync;
  readonly #all: StatementSync;
  readonly #byStatus: StatementSync;
  readonly #nextNumber: StatementSync;
  readonly #insert: StatementSync;
  readonly #update: StatementSync;
  readonly #reset: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#get = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE id = ?`);
    this.#byNumber = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE number = ?`);
    this.#byRange = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE id >= ? AND id < ? ORDER BY id LIMIT ?`);
    this.#all = db.prepare(`SELECT ${COLUMNS} FROM runs ORDER BY number`);
    this.#byStatus = db.prepare(`SELECT ${COLUMNS} FROM runs WHERE status = ? ORDER BY number`);
    this.#nextNumber = db.prepare("SELECT coalesce(max(number), 0) + 1 AS next FROM runs");
    this.#insert = db.prepare(
      "INSERT INTO runs (id, number, status, created_at, last_seq, committed_bytes) VALUES (?, ?, 'created', ?, 0, 0)",
    );
    this.#update = db.prepare(`UPDATE runs SET
      status = coalesce($status, status),
      task = coalesce($task, task),
      agent = coalesce($agent, agent),
      model = coalesce($model, model),
      created_at = coalesce($created_at, created_at),
      started_at = coalesce(started_at, $started_at),
      ended_at = CASE WHEN $ended_set THEN $ended_at ELSE ended_at END,
      pid = coalesce($pid, pid),
      last_seq = $last_seq,
      committed_bytes = $committed_bytes
      WHERE id = $id`);
    this.#reset = db.prepare(`UPDATE runs SET status = 'created', task = NULL, agent = NULL, model = NULL,
      started_at = NULL, ended_at = NULL, pid = NULL, last_seq = 0, committed_bytes = 0 WHERE id = ?`);
  }

  get(id: string): RunSummary | undefined {
    return toSummary(this.#get.get(id) as RunRow | undefined);
  }

  byNumber(number: number): RunSummary | undefined {
    return toSummary(this.#byNumber.get(number) as RunRow | undefined);
  }

  /** Runs whose id is in [from, to), at most `limit`: the candidates of an id prefix. */
  inRange(from: string, to: string, limit: number): RunSummary[] {
    return (this.#byRange.all(from, to, limit) as RunRow[]).map((row) => toSummary(row) as RunSummary);
  }

  list(status?: string): RunSummary[] {
    const rows = (status === undefined ? this.#all.all() : this.#byStatus.all(status)) as RunRow[];
    return rows.map((row) => toSummary(row) as RunSummary);
  }

  /**
   * Adds a run with the next free number, or returns the number it already has. Call inside
   * a write transaction: that is what keeps two processes from taking the same number.
   */
  register(id: string, createdAt: string, number?: number): number {
    const existing = this.#get.get(id) as RunRow | undefined;
    if (existing !== undefined) return existing.number;
    const taken = number !== undefined && this.#byNumber.get(number) !== undefined;
    const assigned = number !== undefined && !taken ? number : (this.#nextNumber.get() as { next: number }).next;
    this.#insert.run(id, assigned, createdAt);
    return assigned;
  }

  /**
   * Records a commit: the new frontier and what its events say about the run. The number is
   * not taken from the patch: it was fixed by `register`.
   */
  applyCommit(id: string, patch: CatalogPatch, lastSeq: number, committedBytes: number): void {
    this.#update.run({
      id,
      status: patch.status ?? null,
      task: patch.task ?? null,
      agent: patch.agent ?? null,
      model: patch.model ?? null,
      created_at: patch.created_at ?? null,
      started_at: patch.started_at ?? null,
      ended_set: patch.ended_at === undefined ? 0 : 1,
      ended_at: patch.ended_at ?? null,
      pid: patch.pid ?? null,
      last_seq: lastSeq,
      committed_bytes: committedBytes,
    });
  }

  /** Forgets what the events said about a run (keeping its number), to index its log again. */
  reset(id: string): void {
    this.#reset.run(id);
  }

  get db(): DatabaseSync {
    return this.#db;
  }
}

function toSummary(row: RunRow | undefined): RunSummary | undefined {
  if (row === undefined) return undefined;
  // In the order of RunSummary's fields, absent ones omitted (not null): it is printed as JSON.
  const summary: Record<string, unknown> = {
    id: row.id,
    number: row.number,
    status: row.status,
    task: row.task,
    agent: row.agent,
    model: row.model,
    created_at: row.created_at,
    started_at: row.started_at,
    ended_at: row.ended_at,
    pid: row.pid,
    last_seq: row.last_seq,
    committed_bytes: row.committed_bytes,
  };
  for (const [key, value] of Object.entries(summary)) if (value === null) delete summary[key];
  return summary as RunSummary;
}
