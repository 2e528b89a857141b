import type pg from "pg";
import type { Envelope, FeedEnvelope } from "@baton/protocol/core";

/** The advisory lock of the one sequencer: whoever holds it turns commit order into positions. */
const SEQUENCER_LOCK = 0x6261746f6e02n;
/** Events given positions per pass. */
const SEQUENCE_PAGE = 10_000;
/** Feed rows read per query. */
export const FEED_PAGE = 1_000;

/**
 * One pass of the sequencer: the events whose transaction is older than every transaction
 * still open (`xid < pg_snapshot_xmin(pg_current_snapshot())`: none of them can commit any
 * more, so no earlier one can appear later), in `(xid, id)` order after the last one placed,
 * get the next positions. A bigserial alone is not commit order: a follower reading `id > last`
 * skips events whose transaction commits late. Serialized by a transaction-scoped advisory
 * lock: with `wait`, until the feed is caught up with what is committed now; without, a pass
 * that finds another sequencer at work leaves it to that one. Returns the events placed, and
 * whether committed events are left unplaced (held back by an older open transaction anywhere
 * on the server, or being placed by another sequencer): a follower then looks again soon, since
 * nothing else will wake it when they are placed.
 */
export async function sequenceFeed(pool: pg.Pool, wait: boolean): Promise<{ placed: number; unplaced: boolean }> {
  const client = await pool.connect();
  let placed = 0;
  let unplaced = false;
  try {
    await client.query("BEGIN");
    try {
      const locked = await client.query<{ ok: boolean }>(wait ? "SELECT pg_advisory_xact_lock($1) IS NULL AS ok" : "SELECT pg_try_advisory_xact_lock($1) AS ok", [SEQUENCER_LOCK]);
      if (wait || locked.rows[0]?.ok === true) {
        for (;;) {
          const count = await sequencePage(client);
          placed += count;
          if (count < SEQUENCE_PAGE) break;
        }
        unplaced = (await client.query<{ left: boolean }>(UNPLACED_SQL)).rows[0]?.left === true;
      } else {
        unplaced = true;
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
  return { placed, unplaced };
}

/** Whether a committed event is still without a position (the commit-order index answers it). */
const UNPLACED_SQL = "SELECT EXISTS (SELECT 1 FROM baton_events e, baton_feed_state s WHERE s.id = 1 AND (e.xid, e.id) > (s.last_xid, s.last_id)) AS left";

async function sequencePage(client: pg.PoolClient): Promise<number> {
  const state = (await client.query<{ last_xid: string; last_id: string; next_pos: string }>("SELECT last_xid::text, last_id::text, next_pos::text FROM baton_feed_state WHERE id = 1")).rows[0];
  if (state === undefined) throw new Error("baton_feed_state is empty: the schema is damaged");
  // Text out (bigint and xid8 exceed a JS number), under other names: ORDER BY must sort the columns, not the text.
  const page = await client.query<{ run_id: string; seq: string; xid: string; id: string }>(
    `SELECT e.run_id, e.seq::text AS seq, e.xid::text AS xid, e.id::text AS id FROM baton_events e
     WHERE (e.xid, e.id) > ($1::xid8, $2::bigint) AND e.xid < pg_snapshot_xmin(pg_current_snapshot())
     ORDER BY e.xid, e.id LIMIT $3`,
    [state.last_xid, state.last_id, SEQUENCE_PAGE],
  );
  const rows = page.rows;
  const last = rows.at(-1);
  if (last === undefined) return 0;
  const first = BigInt(state.next_pos);
  await client.query("INSERT INTO baton_feed (pos, run_id, seq) SELECT $1::bigint + o - 1, r, s FROM unnest($2::text[], $3::bigint[]) WITH ORDINALITY AS t (r, s, o)", [
    first.toString(),
    rows.map((row) => row.run_id),
    rows.map((row) => row.seq),
  ]);
  await client.query("UPDATE baton_feed_state SET last_xid = $1::xid8, last_id = $2, next_pos = $3 WHERE id = 1", [last.xid, last.id, (first + BigInt(rows.length)).toString()]);
  return rows.length;
}

/** The highest position handed out (0 for an empty feed). */
export async function lastFeedPosition(pool: pg.Pool): Promise<number> {
  const result = await pool.query<{ pos: number }>("SELECT (next_pos - 1)::float8 AS pos FROM baton_feed_state WHERE id = 1");
  return result.rows[0]?.pos ?? 0;
}

/** Up to `limit` feed events with pos > `after` and pos <= `until`, in pos order. */
export async function feedPage(pool: pg.Pool, after: number, until: number, limit = FEED_PAGE): Promise<FeedEnvelope[]> {
  const result = await pool.query<{ pos: number; number: number; body: string }>(
    `SELECT f.pos::float8 AS pos, r.number::int AS number, e.body FROM baton_feed f
     JOIN baton_events e ON e.run_id = f.run_id AND e.seq = f.seq
     JOIN baton_runs r ON r.id = f.run_id
     WHERE f.pos > $1 AND f.pos <= $2 ORDER BY f.pos LIMIT $3`,
    [after, until, limit],
  );
  return result.rows.map((row) => ({ ...(JSON.parse(row.body) as Envelope), pos: row.pos, number: row.number }));
}

/** Committed events the sequencer has not placed yet (the feed's lag), and the age of the oldest of them. */
export async function feedLag(pool: pg.Pool): Promise<{ events: number }> {
  const result = await pool.query<{ n: number }>(
    "SELECT count(*)::float8 AS n FROM baton_events e, baton_feed_state s WHERE s.id = 1 AND (e.xid, e.id) > (s.last_xid, s.last_id)",
  );
  return { events: result.rows[0]?.n ?? 0 };
}

/**
 * What holds the feed back: the oldest open transaction that took an xid, and how long it has
 * been open. Of the whole server, not only this database: the snapshot's xmin counts them all.
 */
export async function feedHoldBack(pool: pg.Pool): Promise<{ pid: number; ageMs: number; query: string } | undefined> {
  const result = await pool.query<{ pid: number; age_ms: number; query: string }>(
    `SELECT pid, (extract(epoch FROM now() - xact_start) * 1000)::float8 AS age_ms, left(query, 200) AS query FROM pg_stat_activity
     WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() ORDER BY xact_start LIMIT 1`,
  );
  const row = result.rows[0];
  return row === undefined ? undefined : { pid: row.pid, ageMs: row.age_ms, query: row.query };
}
