import assert from "node:assert/strict";
import { test } from "node:test";
import { sql, testDatabase } from "@baton/engine/store/postgres-testing";
import { testTempDir } from "@baton/protocol/testing";
import { git, parseNdjson, runBaton, startBaton, waitFor, writeScript, type CliResult } from "./cli-harness.ts";
import { exportStoredLogs, finalEvents, repoWithRemote, serveStore, storedEvents, storeEnv } from "./dispatch-harness.ts";

function assertUsageError(result: CliResult, problem: RegExp, fix: RegExp): void {
  assert.equal(result.code, 2, `exit code; stderr: ${result.stderr}`);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^baton: [^\n]+\n$/, "exactly one line on stderr");
  assert.match(result.stderr, problem);
  assert.match(result.stderr, fix);
}

test("submit queues a run; a worker in a folder of its own runs it from the remote, pushes its branch, and baton events reads it from the store", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo, remote } = await repoWithRemote("cli-dispatch-");
  const script = await writeScript(repo, "write.json", [{ say: "on a worker" }, { write: { path: "from-worker.txt", content: "made on a worker\n" } }]);
  const submitted = await runBaton(repo, ["submit", "--script", script, "--json"], { env: storeEnv(url) });
  assert.equal(submitted.code, 0, submitted.stderr);
  const queued = parseNdjson<{ run: string; number: number }>(submitted.stdout)[0];
  assert.equal(queued?.number, 1);
  const listed = await runBaton(repo, ["runs", "--json"], { env: storeEnv(url) });
  assert.deepEqual(parseNdjson<{ id: string; status: string }>(listed.stdout).map((run) => [run.id, run.status]), [[queued.run, "created"]], "a queued run is listed, not recovered");

  const workerDir = await testTempDir("cli-dispatch-worker-");
  const worker = startBaton(workerDir, ["worker", "--concurrency", "2", "--labels", "linux"], { env: storeEnv(url) });
  t.after(() => worker.kill());
  await worker.waitForStdout("the worker to start", (out) => /takes runs/.test(out));
  const workers = await runBaton(repo, ["workers", "--json"], { env: storeEnv(url) });
  const rows = parseNdjson<{ id: string; concurrency: number; labels: string[] }>(workers.stdout);
  assert.equal(rows.length, 1, workers.stderr);
  assert.deepEqual([rows[0]?.concurrency, rows[0]?.labels], [2, ["linux"]]);

  await waitFor("the run to end", async () => finalEvents(await storedEvents(repo, url, 1)).length > 0);
  const events = await storedEvents(repo, url, 1);
  assert.deepEqual(finalEvents(events).map((event) => [event.type, event.data["status"]]), [["run.completed", "succeeded"]], JSON.stringify(events.slice(-3)));
  const ready = events.find((event) => event.type === "workspace.ready");
  const branch = ready?.data["branch"] as string;
  assert.ok(ready !== undefined && String(ready.data["path"]).startsWith(workerDir), "the run worked in the worker's folder");
  await worker.waitForStdout("the branch pushed", (out) => out.includes(`pushed ${branch}`));
  assert.equal(await git(repo, "--git-dir", remote, "show", `${branch}:from-worker.txt`), "made on a worker\n", "the run's branch is on the remote, with its work");
  const epochs = await sql(url, "SELECT DISTINCT epoch::int AS epoch FROM baton_events WHERE run_id = $1", [queued.run]);
  assert.deepEqual(epochs.rows, [{ epoch: 1 }], "the worker took the run from the queue with the first epoch");

  worker.child.kill("SIGTERM");
  const stopped = await worker.done;
  assert.equal(stopped.code, 0, stopped.stderr);
  const after = await runBaton(repo, ["workers"], { env: storeEnv(url) });
  assert.match(after.stdout, /no live workers/);
  assert.equal(await exportStoredLogs(url), 1);
});

test("bad dispatch input: one clear line, exit 2, nothing queued", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo } = await repoWithRemote("cli-dispatch-bad-");
  const script = await writeScript(repo, "say.json", [{ say: "x" }]);
  assertUsageError(await runBaton(repo, ["submit", "--script", script]), /shared store/, /--store postgres/);
  assertUsageError(await runBaton(repo, ["submit", "--script", script], { env: storeEnv(url, { BATON_TIMEOUT: "" }) }), /needs a timeout/, /--timeout/);
  assertUsageError(await runBaton(repo, ["submit", "--script", script, "--base", "no-such-branch"], { env: storeEnv(url) }), /not on the remote/, /git push origin/);
  assertUsageError(await runBaton(repo, ["submit", "--script", script, "--label", "a b"], { env: storeEnv(url) }), /not a label/, /letters, digits/);
  assertUsageError(await runBaton(repo, ["worker"]), /needs the shared store/, /--store postgres/);
  assertUsageError(await runBaton(repo, ["worker", "--store", "postgres://postgres@127.0.0.1:1/nowhere"]), /127\.0\.0\.1:1/, /./);
  assertUsageError(await runBaton(repo, ["worker"], { env: storeEnv(url, { BATON_DISPATCH_HEARTBEAT: "5" }) }), /BATON_DISPATCH_HEARTBEAT/, /at least 10/);
  assertUsageError(await runBaton(repo, ["workers"]), /embedded one/, /--store postgres/);
  const counted = await sql(url, "SELECT count(*)::int AS n FROM baton_runs");
  assert.equal(counted.rows[0]?.n, 0, "no run was made");
});

test("baton run --detach and POST /api/runs on a shared store queue runs that a worker runs", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo } = await repoWithRemote("cli-dispatch-detach-");
  const script = await writeScript(repo, "say.json", [{ say: "detached" }]);
  const detached = await runBaton(repo, ["run", "--detach", "--script", script, "--require-output", "none"], { env: storeEnv(url) });
  assert.equal(detached.code, 0, detached.stderr);
  assert.match(detached.stdout, /^queued run 1 \(run_[0-9A-Z]+\) for the workers at [0-9a-f]{12} \(main\): baton events 1 --follow\n$/);
  const embedded = await runBaton(repo, ["run", "--detach", "--script", script]);
  assert.equal(embedded.code, 2);
  assert.match(embedded.stderr, /^baton: --detach queues the run for the workers of a shared store[^\n]*--store postgres/);

  const { server, post } = await serveStore(t, repo, url);
  const response = await post("/api/runs", { task: "from the API", agent: "fake", script: [{ say: "via the API" }], require_output: "none", timeout: "5m" });
  const created = (await response.json()) as { run: { id: string; number: number } };
  assert.equal(response.status, 201, JSON.stringify(created));
  assert.equal(created.run.number, 2);

  const worker = startBaton(await testTempDir("cli-dispatch-detach-worker-"), ["worker", "--concurrency", "2"], { env: storeEnv(url) });
  t.after(() => worker.kill());
  for (const number of [1, 2]) {
    await waitFor(`run ${number} to end`, async () => finalEvents(await storedEvents(repo, url, number)).length > 0);
    const events = await storedEvents(repo, url, number);
    assert.deepEqual(finalEvents(events).map((event) => event.type), ["run.completed"], JSON.stringify(events.slice(-2)));
  }
  assert.equal((await storedEvents(repo, url, 2))[0]?.data["task"], "from the API");
  worker.child.kill("SIGTERM");
  server.child.kill("SIGTERM");
  await Promise.all([worker.done, server.done]);
  assert.equal(await exportStoredLogs(url), 2);
});

test("a base the remote does not have: the run is tried three times, then fails workspace_remote once", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo } = await repoWithRemote("cli-dispatch-unpushed-");
  await git(repo, "commit", "-q", "--allow-empty", "-m", "not pushed");
  const unpushed = (await git(repo, "rev-parse", "HEAD")).trim();
  const script = await writeScript(repo, "say.json", [{ say: "never" }]);
  const submitted = await runBaton(repo, ["submit", "--script", script, "--base", unpushed, "--require-output", "none"], { env: storeEnv(url) });
  assert.equal(submitted.code, 0, submitted.stderr);
  const worker = startBaton(await testTempDir("cli-dispatch-unpushed-worker-"), ["worker"], { env: storeEnv(url) });
  t.after(() => worker.kill());
  await waitFor("the run to fail", async () => finalEvents(await storedEvents(repo, url, 1)).length > 0);
  const events = await storedEvents(repo, url, 1);
  assert.deepEqual(events.map((event) => event.type), ["run.created", "run.failed"]);
  assert.equal((events[1]?.data["error"] as { code?: string }).code, "workspace_remote");
  assert.match(String((events[1]?.data["error"] as { message?: string }).message), new RegExp(`finding the run's base ${unpushed}`));
  assert.equal(worker.stdout.match(/given back for another try/g)?.length, 2, worker.stdout);
  worker.child.kill("SIGTERM");
  await worker.done;
  assert.equal(await exportStoredLogs(url), 1);
});
