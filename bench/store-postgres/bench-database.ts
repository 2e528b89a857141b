// A database of the bench's own on the machine's PostgreSQL (BATON_TEST_POSTGRES_URL, default
// postgres://postgres@127.0.0.1:5432/postgres), with Baton's schema, dropped afterwards.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { migrateStore } from "@baton/engine/store";

const ADMIN_URL = process.env["BATON_TEST_POSTGRES_URL"] ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Runs `bench` with the URL of a new migrated database, and drops the database after it. */
export async function withBenchDatabase(bench: (url: string) => Promise<void>): Promise<void> {
  const name = `baton_bench_${randomBytes(6).toString("hex")}`;
  await admin(`CREATE DATABASE ${name}`);
  try {
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    await migrateStore(url.toString());
    await bench(url.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}
