import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { sql, testDatabase } from "@baton/engine/store/postgres-testing";
import { testTempDir } from "@baton/protocol/testing";
import { git, parseNdjson, runBaton, startBaton, waitFor, writeScript, type CliResult } from "./cli-harness.ts";
import { exportStoredLogs, finalEvents, repoWithRemote, serveStore, storedEvents, storeEnv } from "./dispatch-harness.ts";

const TWO_STAGES = `digraph two {
  goal="Write the two notes"
  start [shape=Mdiamond]
  exit [shape=Msquare]
  first [prompt="Write the first note"]
  second [prompt="Write the second note"]
  start -> first -> second -> exit
}
`;

const STAGE_SCRIPTS = {
  stages: {
    first: [{ write: { path: "first.txt", content: "first, on a worker\n" } }, { say: "first done" }],
    second: [{ write: { path: "second.txt", content: "second, on a worker\n" } }, { say: "second done" }],
  },
};

function assertUsageError(result: CliResult, problem: RegExp, fix: RegExp): void {
  assert.equal(result.code, 2, `exit code; stderr: ${result.stderr}`);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^baton: [^\n]+\n$/, "exactly one line on stderr");
  assert.match(result.stderr, problem);
  assert.match(result.stderr, fix);
}

/** A JSON file in the repository, kept out of git (as writeScript does for a single script). */
async function writeJson(repo: string, name: string, value: unknown): Promise<string> {
  const path = join(repo, name);
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
  await appendFile(join(repo, ".git", "info", "exclude"), `/${name}\n`);
  return path;
}

async function queuedJobs(url: string): Promise<number> {
  const present = await sql(url, "SELECT to_regclass('pgboss.job') IS NOT NULL AS present");
  if (present.rows[0]?.present !== true) return 0;
  return (await sql(url, "SELECT count(*)::int AS n FROM pgboss.job WHERE name LIKE 'baton-runs%' AND state IN ('created', 'retry', 'active')")).rows[0]?.n as number;
}

test("submit --workflow (and run --detach --workflow, POST /api/runs with a workflow): the workflow as read on the submitter goes with the run; a worker runs its stages and pushes the run's branch at each checkpoint", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo, remote } = await repoWithRemote("cli-dispatch-workflow-");
  // Not committed: the worker has it only from the job.
  await mkdir(join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(repo, ".baton", "workflows", "two.dot"), TWO_STAGES);
  const script = await writeJson(repo, "stages.json", STAGE_SCRIPTS);
  const submitted = await runBaton(repo, ["submit", "--workflow", "two", "--script", script, "--json"], { env: storeEnv(url) });
  assert.equal(submitted.code, 0, submitted.stderr);
  const queued = parseNdjson<{ run: string; number: number }>(submitted.stdout)[0];
  assert.equal(queued?.number, 1);

  const workerDir = await testTempDir("cli-dispatch-workflow-worker-");
  const worker = startBaton(workerDir, ["worker"], { env: storeEnv(url) });
  t.after(() => worker.kill());
  await waitFor("the run to end", async () => finalEvents(await storedEvents(repo, url, 1)).length > 0);
  const events = await storedEvents(repo, url, 1);
  assert.deepEqual(finalEvents(events).map((event) => [event.type, event.data["status"]]), [["run.completed", "succeeded"]], JSON.stringify(events.slice(-3)));
  assert.equal(events[0]?.data["task"], "Write the two notes", "the workflow's goal is the task");
  const loaded = events.find((event) => event.type === "workflow.loaded");
  assert.equal(loaded?.data["name"], "two");
  assert.equal(loaded?.data["sha256"], createHash("sha256").update(TWO_STAGES).digest("hex"), "the worker ran the text the submitter read");
  assert.deepEqual(events.filter((event) => event.type === "checkpoint.saved").map((event) => event.data["stage"]), ["start", "first", "second", "exit"]);
  const branch = events.find((event) => event.type === "workspace.ready")?.data["branch"] as string;
  await worker.waitForStdout("the branch pushed at the end", (out) => out.includes(`pushed ${branch} (the run ended)`));
  assert.ok((worker.stdout.match(new RegExp(`pushed ${branch} \\(checkpoint\\)`, "g"))?.length ?? 0) >= 2, worker.stdout);
  assert.equal(await git(repo, "--git-dir", remote, "show", `${branch}:first.txt`), "first, on a worker\n");
  assert.equal(await git(repo, "--git-dir", remote, "show", `${branch}:second.txt`), "second, on a worker\n");

  // baton run --detach --workflow and POST /api/runs with a workflow queue workflow runs too.
  const detached = await runBaton(repo, ["run", "--detach", "--workflow", "two", "--script", script], { env: storeEnv(url) });
  assert.equal(detached.code, 0, detached.stderr);
  assert.match(detached.stdout, /^queued run 2 /);
  const { server, post } = await serveStore(t, repo, url);
  const response = await post("/api/runs", { workflow: "two", agent: "fake", script: [{ say: "a stage via the API" }], timeout: "5m" });
  const created = (await response.json()) as { run: { number: number } };
  assert.equal(response.status, 201, JSON.stringify(created));
  assert.equal(created.run.number, 3);
  for (const number of [2, 3]) {
    await waitFor(`run ${number} to end`, async () => finalEvents(await storedEvents(repo, url, number)).length > 0);
    const ran = await storedEvents(repo, url, number);
    assert.deepEqual(finalEvents(ran).map((event) => event.type), ["run.completed"], JSON.stringify(ran.slice(-2)));
    assert.deepEqual(ran.filter((event) => event.type === "stage.completed").map((event) => event.data["stage"]), ["start", "first", "second", "exit"]);
  }
  worker.child.kill("SIGTERM");
  server.child.kill("SIGTERM");
  await Promise.all([worker.done, server.done]);
  assert.equal(await exportStoredLogs(url), 3);
});

test("bad workflow input for a dispatched run: one clear line, exit 2, nothing queued", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo } = await repoWithRemote("cli-dispatch-workflow-bad-");
  await writeFile(join(repo, "broken.dot"), "digraph broken {\n  start [shape=Mdiamond\n}\n");
  await writeFile(join(repo, "unchecked.dot"), "digraph unchecked {\n  start [shape=Mdiamond]\n  start -> work\n}\n");
  const script = await writeJson(repo, "stages.json", STAGE_SCRIPTS);
  const env = storeEnv(url);
  assertUsageError(await runBaton(repo, ["submit", "--workflow", "broken.dot", "--script", script], { env }), /broken\.dot/, /./);
  assertUsageError(await runBaton(repo, ["submit", "--workflow", "unchecked.dot", "--script", script], { env }), /unchecked\.dot/, /./);
  assertUsageError(await runBaton(repo, ["run", "--detach", "--workflow", "broken.dot", "--script", script], { env }), /broken\.dot/, /./);
  assertUsageError(await runBaton(repo, ["submit", "--workflow", "nowhere", "--script", script], { env }), /no workflow named "nowhere"/, /create \.baton\/workflows\/nowhere\.dot/);
  assertUsageError(await runBaton(repo, ["submit", "--auto-approve", "--script", script], { env }), /--auto-approve answers a workflow's gates/, /--workflow/);
  await writeFile(join(repo, "two.dot"), TWO_STAGES);
  const bad = await writeJson(repo, "bad-stages.json", { stages: { first: [{ nonsense: true }] } });
  assertUsageError(await runBaton(repo, ["submit", "--workflow", "two.dot", "--script", bad], { env }), /bad-stages\.json/, /fix the script/);
  const counted = await sql(url, "SELECT count(*)::int AS n FROM baton_runs");
  assert.equal(counted.rows[0]?.n, 0, "no run was made");
  assert.equal(await queuedJobs(url), 0, "no job was queued");
});

test("cancel across machines: a queued run is cancelled without a worker (its job removed); a run on a worker elsewhere is cancelled through the store", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo } = await repoWithRemote("cli-dispatch-cancel-");
  const long = await writeScript(repo, "long.json", [{ say: "waiting for something slow" }, { sleep: 600_000 }, { say: "never said" }]);
  const env = storeEnv(url);

  // No worker yet: the run waits in the queue and is ended here.
  const waiting = await runBaton(repo, ["submit", "--script", long, "--require-output", "none", "--json"], { env });
  assert.equal(waiting.code, 0, waiting.stderr);
  assert.equal(await queuedJobs(url), 1);
  const cancelledQueued = await runBaton(repo, ["cancel", "1", "--reason", "not needed"], { env });
  assert.equal(cancelledQueued.code, 0, cancelledQueued.stderr);
  assert.match(cancelledQueued.stdout, /run 1 was waiting for a worker: it is cancelled and its job removed/);
  assert.deepEqual((await storedEvents(repo, url, 1)).map((event) => [event.type, event.data["by"] ?? null]), [["run.created", null], ["run.cancelled", "cli"]]);
  assert.equal(await queuedJobs(url), 0, "its job is gone from the queue");

  // A worker in a folder of its own runs the next one; `baton cancel` here reaches it through the store.
  const worker = startBaton(await testTempDir("cli-dispatch-cancel-worker-"), ["worker", "--lease", "30s"], { env });
  t.after(() => worker.kill());
  await worker.waitForStdout("the worker to start", (out) => /takes runs/.test(out));
  const running = await runBaton(repo, ["submit", "--script", long, "--require-output", "none"], { env });
  assert.equal(running.code, 0, running.stderr);
  await waitFor("the agent's turn to start", async () => (await storedEvents(repo, url, 2)).some((event) => event.type === "turn.started"));
  const asked = Date.now();
  const cancelled = await runBaton(repo, ["cancel", "2"], { env });
  const tookMs = Date.now() - asked;
  assert.equal(cancelled.code, 0, cancelled.stderr);
  assert.match(cancelled.stdout, /asked run 2 to cancel; waiting for it to end…\nrun 2 ended: run\.cancelled\n/);
  const events = await storedEvents(repo, url, 2);
  assert.deepEqual(finalEvents(events).map((event) => [event.type, event.data["by"]]), [["run.cancelled", "cli"]]);
  assert.equal(events.filter((event) => event.type === "turn.completed")[0]?.data["stop_reason"], "cancelled");
  assert.ok(!events.some((event) => event.type === "agent.message" && event.data["text"] === "never said"));
  assert.match(worker.stdout, /cancel asked by cli/);
  // NOTIFY wakes the worker: well within the 10 s a heartbeat takes with a 30 s lease.
  assert.ok(tookMs < 10_000, `the cancel took ${tookMs} ms`);
  process.stderr.write(`cancel across machines: ${tookMs} ms from baton cancel to its exit after run.cancelled\n`);

  // Through the API of a server on yet another folder's store connection.
  const third = await runBaton(repo, ["submit", "--script", long, "--require-output", "none"], { env });
  assert.equal(third.code, 0, third.stderr);
  await waitFor("run 3's turn to start", async () => (await storedEvents(repo, url, 3)).some((event) => event.type === "turn.started"));
  const { server, post } = await serveStore(t, repo, url);
  const response = await post("/api/runs/3/cancel", { reason: "from the API" });
  assert.equal(response.status, 202, await response.text());
  await waitFor("run 3 to end", async () => finalEvents(await storedEvents(repo, url, 3)).length > 0);
  assert.deepEqual(finalEvents(await storedEvents(repo, url, 3)).map((event) => [event.type, event.data["by"], event.data["reason"]]), [["run.cancelled", "api", "from the API"]]);
  worker.child.kill("SIGTERM");
  server.child.kill("SIGTERM");
  await Promise.all([worker.done, server.done]);
  assert.equal(await exportStoredLogs(url), 3);
});

