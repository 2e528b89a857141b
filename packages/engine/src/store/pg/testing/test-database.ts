// For tests: databases of their own on the machine's PostgreSQL, made and dropped per test.
import { randomBytes } from "node:crypto";
import type { TestContext } from "node:test";
import pg from "pg";
import { migratePgStore } from "../open-pg-store.ts";

/** The server tests use: `BATON_TEST_POSTGRES_URL`, else the local one with trust auth. */
export const ADMIN_URL = process.env["BATON_TEST_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** Set (by `.ci/run`): a test that needs PostgreSQL fails when it cannot reach it, instead of skipping. */
export const REQUIRE_ENV = "BATON_REQUIRE_POSTGRES";

let reachable: Promise<string | undefined> | undefined;

/** Undefined when PostgreSQL answers; else why not. */
export function postgresUnavailable(): Promise<string | undefined> {
  reachable ??= (async () => {
    const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
    client.on("error", () => {});
    try {
      await client.connect();
      await client.query("SELECT 1");
      return undefined;
    } catch (error) {
      return `PostgreSQL at ${ADMIN_URL} is unreachable (${(error as Error).message})`;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return reachable;
}

/** A URL of the same server with another database name. */
export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  client.on("error", () => {});
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A new empty database `baton_test_<random>`, dropped after the test. Returns its URL, or
 * undefined after skipping the test (with the reason printed) when PostgreSQL is unreachable
 * and BATON_REQUIRE_POSTGRES is unset. With `migrate` (the default) it has Baton's schema.
 */
export async function testDatabase(t: TestContext, options: { migrate?: boolean } = {}): Promise<string | undefined> {
  const why = await postgresUnavailable();
  if (why !== undefined) {
    if (process.env[REQUIRE_ENV] !== undefined && process.env[REQUIRE_ENV] !== "") throw new Error(`${why}, and ${REQUIRE_ENV} is set`);
    process.stderr.write(`skipped: ${why}\n`);
    t.skip(why);
    return undefined;
  }
  const name = `baton_test_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  t.after(() => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  const url = databaseUrl(name);
  if (options.migrate !== false) await migratePgStore(url);
  return url;
}

/** Runs SQL in the test database (to age a lease, plant a newer schema, and so on). */
export async function sql(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end().catch(() => {});
  }
}
