import assert from "node:assert/strict";
import { test } from "node:test";
import { isConnectionError, makePool } from "./pg-connect.ts";
import { tcpRelay } from "./testing/tcp-relay.ts";
import { testDatabase } from "./testing/test-database.ts";

test("a checked-out client whose server goes away fails its query with a connection error, and nothing is thrown uncaught", { timeout: 30_000 }, async (t) => {
  const direct = await testDatabase(t);
  if (direct === undefined) return;
  const relay = await tcpRelay(direct);
  t.after(() => relay.close());
  const pool = makePool(relay.url, 2);
  t.after(() => pool.end());
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);
  // Listened for here as well as by the test runner, which would fail the test with it.
  process.on("uncaughtException", onUncaught);
  t.after(() => process.off("uncaughtException", onUncaught));

  const client = await pool.connect();
  const query = client.query("SELECT pg_sleep(10)");
  const restarted = relay.restart(200);
  const error = await query.then(() => undefined, (reason: unknown) => reason);
  client.release(error instanceof Error ? error : undefined);
  await restarted;
  assert.ok(error instanceof Error, "the query failed");
  assert.ok(isConnectionError(error), `a connection error: ${String(error)}`);
  // The client's "error" event comes on the same tick as the query's failure, or just after.
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(uncaught, [], "nothing was thrown uncaught");

  const again = await pool.query<{ one: number }>("SELECT 1 AS one");
  assert.equal(again.rows[0]?.one, 1, "the pool connects again once the server is back");
});
