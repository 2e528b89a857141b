import type { DatabaseSync, StatementSync } from "node:sqlite";

/**
 * One committed batch of one run on the cross-run feed: its events have the positions
 * pos_first … pos_first + count - 1 and the seqs seq_first … in that order, and occupy the
 * bytes [byte_offset, byte_offset + byte_length) of the run's log. One row per batch instead
 * of one per event keeps the commit path to a single insert.
 */
export type BatchRow = {
  pos_first: number;
  run: string;
  seq_first: number;
  count: number;
  byte_offset: number;
  byte_length: number;
};

/**
 * The `batches` table: the feed. Positions come from `meta.next_pos`, read and advanced
 * inside the same write transaction that inserts the row. SQLite lets one write transaction
 * commit at a time, so positions are handed out in commit order: a reader that has seen
 * position P has seen every committed position below P, whichever process committed it.
 */
export class FeedRows {
  readonly #nextPos: StatementSync;
  readonly #setNextPos: StatementSync;
  readonly #insert: StatementSync;
  readonly #page: StatementSync;
  readonly #forgetFrom: StatementSync;

  constructor(db: DatabaseSync) {
    this.#nextPos = db.prepare("SELECT value FROM meta WHERE key = 'next_pos'");
    this.#setNextPos = db.prepare("UPDATE meta SET value = ? WHERE key = 'next_pos'");
    this.#insert = db.prepare(
      "INSERT INTO batches (pos_first, run, seq_first, count, byte_offset, byte_length) VALUES (?, ?, ?, ?, ?, ?)",
    );
    // The batch holding cursor + 1 (it may start at or before the cursor), then the ones after.
    // A batch holds pos_first … pos_first + count - 1: it has a position past the cursor when
    // pos_first + count - 1 > cursor. The batch that ends at the cursor is not part of the page:
    // returned, a caught-up follower would read it again and again instead of waiting.
    this.#page = db.prepare(`SELECT pos_first, run, seq_first, count, byte_offset, byte_length FROM batches
      WHERE pos_first >= coalesce((SELECT max(pos_first) FROM batches WHERE pos_first <= $cursor), 0)
        AND pos_first + count - 1 > $cursor
      ORDER BY pos_first LIMIT $limit`);
    this.#forgetFrom = db.prepare("DELETE FROM batches WHERE run = ? AND byte_offset + byte_length > ?");
  }

  /** The position the next committed event gets. */
  nextPos(): number {
    return Number((this.#nextPos.get() as { value: number }).value);
  }

  /**
   * Appends a batch to the feed and returns its first position. Call inside a write
   * transaction. `skip` leaves a hole before it (see reconcile: positions an OS crash may
   * have taken back are never handed out again).
   */
  add(batch: Omit<BatchRow, "pos_first">, skip = 0): number {
    const pos = this.nextPos() + skip;
    this.#insert.run(pos, batch.run, batch.seq_first, batch.count, batch.byte_offset, batch.byte_length);
    this.#setNextPos.run(pos + batch.count);
    return pos;
  }

  /** Up to `limit` batches holding positions after `cursor`, in position order. */
  after(cursor: number, limit: number): BatchRow[] {
    return this.#page.all({ cursor, limit }) as BatchRow[];
  }

  /** Drops a run's batches that reach past `size` bytes (the log was cut below what the index had). */
  forgetBeyond(run: string, size: number): void {
    this.#forgetFrom.run(run, size);
  }
}
