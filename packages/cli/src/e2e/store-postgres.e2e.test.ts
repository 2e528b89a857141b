import assert from "node:assert/strict";
import { access, appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { databaseUrl, sql, testDatabase } from "@baton/engine/store/postgres-testing";
import type { Envelope } from "@baton/protocol";
import pg from "pg";
import { cliEnv, makeRepo, parseNdjson, runBaton, writeScript, type CliResult } from "./cli-harness.ts";

/** Exit 2, nothing on stdout, one line on stderr naming the problem and the fix. */
function assertUsageError(result: CliResult, problem: RegExp, fix: RegExp): void {
  assert.equal(result.code, 2, `exit code; stderr: ${result.stderr}`);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^baton: [^\n]+\n$/, "exactly one line on stderr");
  assert.match(result.stderr, problem);
  assert.match(result.stderr, fix);
}

const exists = (path: string) => access(path).then(() => true, () => false);

test("with --store, BATON_STORE or [store] url, runs are kept in PostgreSQL: run, runs, events, show", async (t) => {
  const url = await testDatabase(t, { migrate: false });
  if (url === undefined) return;
  const repo = await makeRepo("cli-store-pg-");
  const migrated = await runBaton(repo, ["store", "migrate", "--store", url]);
  assert.equal(migrated.code, 0, migrated.stderr);
  assert.match(migrated.stdout, /applied schema versions 1, 2, 3/);
  assert.match((await runBaton(repo, ["store", "migrate", "--store", url])).stdout, /the schema is up to date/);

  const script = await writeScript(repo, "say.json", [{ say: "kept in the database" }]);
  const run = await runBaton(repo, ["--store", url, "run", "--agent", "fake", "--script", script, "--require-output", "none", "--json"]);
  assert.equal(run.code, 0, run.stderr);
  const printed = parseNdjson<Envelope>(run.stdout);
  const runId = printed[0]?.run as string;
  assert.equal(printed.at(-1)?.type, "run.completed");
  assert.equal(await exists(join(repo, ".baton", "runs", runId, "events.jsonl")), false, "no log file: the events are in PostgreSQL");
  assert.equal(await exists(join(repo, ".baton", "index.db")), false, "the embedded store was never opened");
  // The run's transcript is made from its events in PostgreSQL.
  assert.doesNotMatch(run.stderr, /could not write the transcript/);
  assert.match(await readFile(join(repo, ".baton", "runs", runId, "transcript.md"), "utf8"), /kept in the database/);

  const events = await runBaton(repo, ["events", "1", "--json"], { env: cliEnv({ BATON_STORE: url }) });
  assert.equal(events.code, 0, events.stderr);
  assert.deepEqual(parseNdjson<Envelope>(events.stdout), printed, "the stored events are the ones the run printed");
  await appendFile(join(repo, ".baton", "config.toml"), `\n[store]\nurl = "${url}"\n`);
  const runs = await runBaton(repo, ["runs", "--json"]);
  assert.equal(runs.code, 0, runs.stderr);
  assert.deepEqual(parseNdjson<{ id: string; status: string }>(runs.stdout).map((row) => [row.id, row.status]), [[runId, "succeeded"]]);
  const show = await runBaton(repo, ["show", "1"]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, new RegExp(`log: +postgres://[^\\n]*\\(run ${runId}\\)`));
  const rows = await sql(url, "SELECT count(*)::int AS n FROM baton_events WHERE run_id = $1", [runId]);
  assert.equal(rows.rows[0]?.n, printed.length);
});

test("a store that cannot be used: one clear line, exit 2", async (t) => {
  const unmigrated = await testDatabase(t, { migrate: false });
  const newer = await testDatabase(t);
  if (unmigrated === undefined || newer === undefined) return;
  await sql(newer, "INSERT INTO baton_schema (version, name) VALUES (999, 'from the future')");
  const repo = await makeRepo("cli-store-pg-bad-");
  const wrongUser = new URL(unmigrated);
  wrongUser.username = "no_such_baton_user";
  wrongUser.password = "secret";
  const cases: Array<{ name: string; args: string[]; problem: RegExp; fix: RegExp }> = [
    { name: "an unreachable server", args: ["--store", "postgres://postgres@127.0.0.1:1/baton", "runs"], problem: /cannot reach PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/baton/, fix: /check the host and port/ },
    { name: "wrong credentials", args: ["--store", wrongUser.toString(), "runs"], problem: /PostgreSQL refused the credentials of postgres:\/\/no_such_baton_user:\*\*\*@/, fix: /check the user and password/ },
    { name: "a database that does not exist", args: ["--store", databaseUrl("baton_no_such_database"), "runs"], problem: /database "baton_no_such_database" does not exist/, fix: /create the database/ },
    { name: "a database without the schema", args: ["--store", unmigrated, "runs"], problem: /has no Baton schema/, fix: /baton store migrate/ },
    { name: "a newer schema", args: ["--store", newer, "runs"], problem: /schema is version 999, newer than this Baton knows/, fix: /upgrade Baton/ },
    { name: "a newer schema, migrating", args: ["--store", newer, "store", "migrate"], problem: /schema is version 999/, fix: /upgrade Baton/ },
    { name: "not a store URL", args: ["--store", "mysql://x/y", "runs"], problem: /"mysql:\/\/x\/y" is not a store URL/, fix: /postgres:\/\/user@host/ },
    { name: "migrate with no store named", args: ["store", "migrate"], problem: /no PostgreSQL store is named/, fix: /--store postgres:\/\// },
  ];
  for (const { name, args, problem, fix } of cases) {
    await t.test(name, async () => assertUsageError(await runBaton(repo, args), problem, fix));
  }
  assert.doesNotMatch((await runBaton(repo, ["--store", wrongUser.toString(), "runs"])).stderr, /secret/, "a password is never printed");
});

test("baton store status names the open transaction that holds the feed back, and the events waiting for a position", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const repo = await makeRepo("cli-store-pg-status-");
  const env = cliEnv({ BATON_STORE: url });
  const script = await writeScript(repo, "say.json", [{ say: "hello" }]);
  const idle = await runBaton(repo, ["store", "status"], { env });
  assert.equal(idle.code, 0, idle.stderr);
  assert.match(idle.stdout, /schema: +version 3\n/);
  assert.match(idle.stdout, /oldest transaction: none open/);
  const holder = new pg.Client({ connectionString: url });
  holder.on("error", () => {});
  await holder.connect();
  t.after(() => holder.end().catch(() => {}));
  await holder.query("BEGIN");
  const pid = (await holder.query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_current_xact_id()")).rows[0]?.pid;
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script, "--require-output", "none"], { env })).code, 0);
  const held = await runBaton(repo, ["store", "status", "--json"], { env });
  assert.equal(held.code, 0, held.stderr);
  const status = JSON.parse(held.stdout) as { runs: number; feed: { position: number; unsequenced: number; oldest_transaction: { pid: number } | null } };
  assert.equal(status.runs, 1);
  assert.equal(status.feed.oldest_transaction?.pid, pid, "the transaction left open is named");
  const feed = await runBaton(repo, ["events", "--json"], { env });
  assert.equal(feed.stdout, "", "the feed gives nothing while an older transaction is open");
  await holder.query("COMMIT");
  const after = await runBaton(repo, ["events", "--json"], { env });
  assert.ok(parseNdjson(after.stdout).length > 5, "once it ends, the feed has the run's events");
  const status2 = JSON.parse((await runBaton(repo, ["store", "status", "--json"], { env })).stdout) as { feed: { unsequenced: number; oldest_transaction: unknown } };
  assert.deepEqual([status2.feed.unsequenced, status2.feed.oldest_transaction], [0, null]);
});
