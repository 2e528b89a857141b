/**
 * The PostgreSQL store's schema, as versioned migrations: each runs once, in order, in one
 * transaction with the version it brings. Never edit one that has shipped; add the next.
 */
export type Migration = { version: number; name: string; sql: string };

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "runs, events, the feed",
    sql: `
      CREATE TABLE baton_meta (key text PRIMARY KEY, value text NOT NULL);
      INSERT INTO baton_meta (key, value) VALUES ('feed_epoch', md5(random()::text || clock_timestamp()::text));

      CREATE SEQUENCE baton_run_numbers;
      CREATE TABLE baton_runs (
        id text PRIMARY KEY,
        number bigint NOT NULL UNIQUE,
        status text NOT NULL DEFAULT 'created',
        task text, agent text, model text,
        created_at text, started_at text, ended_at text,
        pid integer,
        last_seq bigint NOT NULL DEFAULT 0,
        committed_bytes bigint NOT NULL DEFAULT 0,
        -- Who may write the run: the lease, its owner and epoch (the fencing token).
        lease_owner text,
        lease_epoch bigint NOT NULL DEFAULT 0,
        lease_expires_at timestamptz
      );
      CREATE INDEX baton_runs_status ON baton_runs (status, number);

      -- One row per durable event. xid: the writing transaction (the feed's commit order).
      CREATE TABLE baton_events (
        run_id text NOT NULL REFERENCES baton_runs (id),
        seq bigint NOT NULL,
        epoch bigint NOT NULL,
        xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        id bigserial NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (run_id, seq)
      );
      CREATE INDEX baton_events_commit_order ON baton_events (xid, id);

      -- The cross-run feed: the sequencer's positions, in commit order.
      CREATE TABLE baton_feed (pos bigint PRIMARY KEY, run_id text NOT NULL, seq bigint NOT NULL);
      CREATE TABLE baton_feed_state (
        id integer PRIMARY KEY CHECK (id = 1),
        last_xid xid8 NOT NULL,
        last_id bigint NOT NULL,
        next_pos bigint NOT NULL
      );
      INSERT INTO baton_feed_state VALUES (1, '0'::xid8, 0, 1);
    `,
  },
  {
    version: 2,
    name: "workers, dispatched runs",
    sql: `
      -- The workers that claim dispatched runs (baton worker), each renewing its row on a heartbeat.
      CREATE TABLE baton_workers (
        id text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        labels text[] NOT NULL DEFAULT '{}',
        concurrency integer NOT NULL,
        lease_ms integer NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        stopped_at timestamptz
      );
      -- A run dispatched to workers is recovered by a worker (worker.lost), never by a reader.
      ALTER TABLE baton_runs ADD COLUMN dispatched boolean NOT NULL DEFAULT false;
    `,
  },
  {
    version: 3,
    name: "cancel requests",
    sql: `
      -- A request to cancel a run, from any machine (baton cancel, the API): the worker holding
      -- the run's lease reads it (woken by NOTIFY baton_cancel, or at its next heartbeat).
      CREATE TABLE baton_cancel_requests (
        run_id text PRIMARY KEY REFERENCES baton_runs (id),
        requested_by text NOT NULL,
        reason text,
        requested_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
];

/** The newest schema version this Baton knows. */
export const SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;
