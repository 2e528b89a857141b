import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import { DEFAULT_EVENT_LIMIT_BYTES } from "@baton/protocol/core";
import { monotonicFactory } from "ulid";
import { checkConnection, connectionFailure, displayUrl, makePool } from "./pg-connect.ts";
import type { PgContext } from "./pg-context.ts";
import { PgHints, PgNotifier } from "./pg-hints.ts";
import { PgStore } from "./pg-store.ts";
import { checkSchema, migrate } from "./schema/migrate.ts";

export type PgStoreOptions = {
  now?: () => Date;
  newRunId?: () => string;
  eventLimitBytes?: number;
  pollMs?: number;
  /** How long a writer's lease lasts without a heartbeat (renewed every third of it). */
  leaseMs?: number;
  /** Connections of the pool. */
  maxConnections?: number;
  /** Test seam: see PgContext.beforeCommit. */
  beforeCommit?: () => Promise<void>;
};

/** A lease: a writer that stops heartbeating for this long loses its run to recovery or another worker. */
export const DEFAULT_LEASE_MS = 30_000;
/** Followers poll this often, the fallback of LISTEN/NOTIFY. */
export const PG_POLL_MS = 250;

/**
 * Opens the PostgreSQL store at `url` for the project whose local `.baton` is `batonDir`.
 * The database must have Baton's schema at this version (`baton store migrate`); an
 * unreachable server, refused credentials, a missing database or schema, and a newer schema
 * are each one BatonError naming the fix.
 */
export async function openPgStore(url: string, batonDir: string, options: PgStoreOptions = {}): Promise<PgStore> {
  const pool = makePool(url, options.maxConnections ?? 8);
  try {
    const client = await checkConnection(pool, url);
    let epoch: string;
    try {
      await checkSchema(client, displayUrl(url));
      epoch = (await client.query<{ value: string }>("SELECT value FROM baton_meta WHERE key = 'feed_epoch'")).rows[0]?.value ?? "";
    } finally {
      client.release();
    }
    const now = options.now ?? (() => new Date());
    const nextUlid = monotonicFactory();
    const context: PgContext = {
      url,
      pool,
      hints: new PgHints(async () => {
        const listener = new pg.Client({ connectionString: url });
        await listener.connect();
        return listener;
      }),
      notifier: new PgNotifier(pool),
      batonDir,
      owner: `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      pollMs: options.pollMs ?? PG_POLL_MS,
      eventLimitBytes: options.eventLimitBytes ?? DEFAULT_EVENT_LIMIT_BYTES,
      now,
      nowMs: options.now === undefined ? Date.now : () => now().getTime(),
      newRunId: options.newRunId ?? (() => `run_${nextUlid(now().getTime())}`),
      beforeCommit: options.beforeCommit,
    };
    return new PgStore(context, epoch);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
}

/** Creates or upgrades Baton's schema at `url`; returns the versions applied (none when up to date). */
export async function migratePgStore(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    throw connectionFailure(error, url);
  }
  try {
    return await migrate(client);
  } finally {
    await client.end().catch(() => {});
  }
}
