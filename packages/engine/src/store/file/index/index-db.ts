import { DatabaseSync } from "node:sqlite";

/**
 * How long a process waits for another's write transaction on index.db before failing. Write
 * transactions are short (one per batch) except the one-time rebuild of a deleted index.
 */
export const DEFAULT_BUSY_TIMEOUT_MS = 30_000;

const SCHEMA_VERSION = 1;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY,
  number INTEGER NOT NULL UNIQUE,
  status TEXT NOT NULL,
  task TEXT,
  agent TEXT,
  model TEXT,
  created_at TEXT,
  started_at TEXT,
  ended_at TEXT,
  pid INTEGER,
  last_seq INTEGER NOT NULL DEFAULT 0,
  committed_bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS runs_by_status ON runs(status);
CREATE TABLE IF NOT EXISTS batches (
  pos_first INTEGER PRIMARY KEY,
  run TEXT NOT NULL,
  seq_first INTEGER NOT NULL,
  count INTEGER NOT NULL,
  byte_offset INTEGER NOT NULL,
  byte_length INTEGER NOT NULL
);
`;

/**
 * Opens index.db: WAL so that readers never block the writer; `synchronous = NORMAL`, which
 * does not fsync on commit. That is safe because the index is derived: the log is fsync'd
 * before each index commit, and an index commit lost to an OS crash is re-derived from the
 * logs on the next open (see reconcile). FULL would add a second fsync per batch, taken on
 * the event loop.
 */
export function openIndexDb(path: string, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): DatabaseSync {
  const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  try {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    // Checkpoints are run by the store itself, between batches (see WalCheckpoints): an
    // automatic one would run inside a batch's COMMIT, its fsyncs delaying the batch's delivery.
    db.exec("PRAGMA wal_autocheckpoint = 0");
    writeTransaction(db, () => {
      db.exec(SCHEMA);
      db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', ?)").run(SCHEMA_VERSION);
      db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('next_pos', 1)").run();
    });
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Runs `body` in a write transaction taken up front (`BEGIN IMMEDIATE`): it waits for other
 * writers under the busy timeout instead of failing when a read would upgrade to a write.
 * The body is synchronous on purpose: an await inside would let other code on the same
 * connection run its statements inside this transaction.
 */
export function writeTransaction<T>(db: DatabaseSync, body: () => T): T {
  db.exec("BEGIN IMMEDIATE");
  try {
    const result = body();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}

export function readMeta(db: DatabaseSync, key: string): string | number | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string | number } | undefined;
  return row?.value;
}

export function writeMeta(db: DatabaseSync, key: string, value: string | number): void {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(key, value);
}

/** Write transactions between two checkpoints: about 1,000 WAL pages, SQLite's own default. */
const COMMITS_PER_CHECKPOINT = 256;

/**
 * Keeps index.db's write-ahead log short without checkpointing inside a commit: a writer
 * counts its commits and checkpoints (PASSIVE: never waits for readers) after a batch has
 * been delivered, while the next batch's write is already under way; the store checkpoints
 * once more as it closes, so that processes that each commit a little do not grow the log
 * between them.
 */
export class WalCheckpoints {
  readonly #db: DatabaseSync;
  #commits = 0;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Counts a write transaction; checkpoints when enough have gathered. */
  committed(): void {
    this.#commits += 1;
    if (this.#commits >= COMMITS_PER_CHECKPOINT) this.checkpoint();
  }

  /** Checkpoints if anything was committed since the last one. */
  checkpoint(): void {
    if (this.#commits === 0) return;
    this.#commits = 0;
    this.#db.exec("PRAGMA wal_checkpoint(PASSIVE)");
  }
}
