import type pg from "pg";
import type { PgHints, PgNotifier } from "./pg-hints.ts";

/** Everything the parts of one open PostgreSQL store share. */
export type PgContext = {
  url: string;
  pool: pg.Pool;
  hints: PgHints;
  notifier: PgNotifier;
  /** The project's local `.baton` (run folders on this machine). */
  batonDir: string;
  /** Who this process is, as a lease owner: host, pid and a random part. */
  owner: string;
  leaseMs: number;
  pollMs: number;
  eventLimitBytes: number;
  now: () => Date;
  nowMs: () => number;
  newRunId: () => string;
  /** Test seam: each batch is committed in a transaction of its own, after this resolves (a slow commit). */
  beforeCommit?: (() => Promise<void>) | undefined;
};
