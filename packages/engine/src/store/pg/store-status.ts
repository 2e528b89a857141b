import { displayUrl } from "../store-url.ts";
import { checkConnection, makePool } from "./pg-connect.ts";
import { feedHoldBack, feedLag, lastFeedPosition } from "./pg-feed.ts";
import { schemaVersion } from "./schema/migrate.ts";
import { SCHEMA_VERSION } from "./schema/migrations.ts";

export type StoreStatus = {
  url: string;
  schema: { version: number; known: number };
  runs: number;
  feed: {
    position: number;
    /** Committed events not given a position yet: they wait for the sequencer, or for an older transaction to end. */
    unsequenced: number;
    /** The oldest open transaction of the server, in any database (it holds the feed back while it lasts). */
    oldest_transaction: { pid: number; age_ms: number; query: string } | null;
  };
};

/** What `baton store status` reports of a PostgreSQL store (without migrating or sequencing anything). */
export async function pgStoreStatus(url: string): Promise<StoreStatus> {
  const pool = makePool(url, 2);
  try {
    const client = await checkConnection(pool, url);
    const version = await schemaVersion(client).finally(() => client.release());
    const status: StoreStatus = { url: displayUrl(url), schema: { version, known: SCHEMA_VERSION }, runs: 0, feed: { position: 0, unsequenced: 0, oldest_transaction: null } };
    if (version === 0) return status;
    status.runs = (await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM baton_runs")).rows[0]?.n ?? 0;
    const hold = await feedHoldBack(pool);
    status.feed = { position: await lastFeedPosition(pool), unsequenced: (await feedLag(pool)).events, oldest_transaction: hold === undefined ? null : { pid: hold.pid, age_ms: Math.round(hold.ageMs), query: hold.query } };
    return status;
  } finally {
    await pool.end().catch(() => {});
  }
}
