import assert from "node:assert/strict";
import { test } from "node:test";
import { isBatonError } from "../../../errors.ts";
import { openStore } from "../../open-store.ts";
import { migratePgStore } from "../open-pg-store.ts";
import { sql, testDatabase } from "../testing/test-database.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";

const ALL_VERSIONS = MIGRATIONS.map((migration) => migration.version);

test("migrate creates the schema once; again it applies nothing", async (t) => {
  const url = await testDatabase(t, { migrate: false });
  if (url === undefined) return;
  await assert.rejects(openStore("/nonexistent", { url }), (error) => isBatonError(error) && error.code === "store_not_migrated" && /no Baton schema/.test(error.message) && /baton store migrate/.test(error.toLine()));
  assert.deepEqual(await migratePgStore(url), ALL_VERSIONS);
  assert.deepEqual(await migratePgStore(url), []);
  await (await openStore("/nonexistent", { url })).close();
});

test("migrations from several processes at once apply each version once", async (t) => {
  const url = await testDatabase(t, { migrate: false });
  if (url === undefined) return;
  const applied = await Promise.all([migratePgStore(url), migratePgStore(url), migratePgStore(url)]);
  assert.deepEqual(applied.flat().sort((a, b) => a - b), ALL_VERSIONS);
});

test("a schema newer than this Baton knows is refused, by open and by migrate", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  await sql(url, "INSERT INTO baton_schema (version, name) VALUES ($1, 'from the future')", [SCHEMA_VERSION + 1]);
  for (const attempt of [() => openStore("/nonexistent", { url }), () => migratePgStore(url)]) {
    await assert.rejects(attempt(), (error) => isBatonError(error) && error.code === "store_schema_newer" && error.message.includes(`version ${SCHEMA_VERSION + 1}`));
  }
});
