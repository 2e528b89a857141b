import type pg from "pg";
import { BatonError } from "../../../errors.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";

/** Serializes migrations across processes (any number of servers and workers may start at once). */
const MIGRATION_LOCK = 0x6261746f6e01n;

/** The schema version recorded in the database, 0 when Baton has never migrated it. */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const table = await client.query<{ present: boolean }>("SELECT to_regclass('baton_schema') IS NOT NULL AS present");
  if (table.rows[0]?.present !== true) return 0;
  const result = await client.query<{ version: number }>("SELECT coalesce(max(version), 0)::int AS version FROM baton_schema");
  return result.rows[0]?.version ?? 0;
}

/**
 * Applies the migrations the database lacks, each in a transaction of its own with its version
 * row, under an advisory lock. Returns the versions applied. Refuses a newer schema.
 */
export async function migrate(client: pg.ClientBase): Promise<number[]> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    await client.query("CREATE TABLE IF NOT EXISTS baton_schema (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
    const current = await schemaVersion(client);
    refuseNewer(current);
    const applied: number[] = [];
    for (const migration of MIGRATIONS.filter((m) => m.version > current)) {
      await client.query("BEGIN");
      try {
        await client.query(migration.sql);
        await client.query("INSERT INTO baton_schema (version, name) VALUES ($1, $2)", [migration.version, migration.name]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
  }
}

/** Throws unless the database has exactly the schema this Baton knows. */
export async function checkSchema(client: pg.ClientBase, where: string): Promise<void> {
  const current = await schemaVersion(client);
  refuseNewer(current);
  if (current < SCHEMA_VERSION) {
    throw new BatonError("store_not_migrated", `${where} has ${current === 0 ? "no Baton schema" : `Baton's schema version ${current}, this Baton needs ${SCHEMA_VERSION}`}`, {
      hint: "run `baton store migrate --store URL` first",
    });
  }
}

function refuseNewer(current: number): void {
  if (current > SCHEMA_VERSION) {
    throw new BatonError("store_schema_newer", `the store's schema is version ${current}, newer than this Baton knows (${SCHEMA_VERSION})`, {
      hint: "upgrade Baton to the version that migrated the store",
    });
  }
}
