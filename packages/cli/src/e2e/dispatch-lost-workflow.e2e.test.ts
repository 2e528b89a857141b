import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { appendFile, chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { sql, testDatabase } from "@baton/engine/store/postgres-testing";
import { testTempDir } from "@baton/protocol/testing";
import { git, parseNdjson, runBaton, startBaton, waitFor } from "./cli-harness.ts";
import { exportStoredLogs, finalEvents, repoWithRemote, storedEvents, storeEnv } from "./dispatch-harness.ts";
import { killProcessesNaming } from "./process-probe.ts";

const LEASE = "3s";
const FAST = { BATON_DISPATCH_HEARTBEAT: "10" };

/**
 * An agent stage, then a command stage that holds the first time it runs (it marks that it
 * started, then loops; the mark's path is in its command line), then another agent stage.
 */
function workflow(marks: string): string {
  const hold = `echo held > held.txt; if [ ! -e ${marks}/hold ]; then touch ${marks}/hold; while :; do sleep 0.2; done; fi`;
  return `digraph lost {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  first [prompt="Write the first note"]
  hold [shape=parallelogram, script="${hold}"]
  second [prompt="Write the second note"]
  start -> first -> hold -> second -> exit
}
`;
}

const STAGES = {
  stages: {
    first: [{ write: { path: "first.txt", content: "first\n" } }, { say: "first done" }],
    second: [{ write: { path: "second.txt", content: "second\n" } }, { say: "second done" }],
  },
};

async function project(prefix: string): Promise<{ repo: string; remote: string; marks: string; script: string }> {
  const { repo, remote } = await repoWithRemote(prefix);
  const marks = await testTempDir(`${prefix}marks-`);
  await writeFile(join(repo, "lost.dot"), workflow(marks));
  const script = join(repo, "stages.json");
  await writeFile(script, JSON.stringify(STAGES));
  await appendFile(join(repo, ".git", "info", "exclude"), "/lost.dot\n/stages.json\n");
  return { repo, remote, marks, script };
}

const code = (event: Envelope | undefined) => (event?.data["error"] as { code?: string } | undefined)?.code;

test("a worker killed inside a workflow run: another records worker.lost, fetches the run's branch, and goes on after the last checkpoint: same run and log, a new attempt, completed visits never again", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo, remote, marks, script } = await project("cli-dispatch-lost-wf-");
  const submitted = await runBaton(repo, ["submit", "--workflow", "lost.dot", "--script", script, "--json", "Write two notes"], { env: storeEnv(url, FAST) });
  assert.equal(submitted.code, 0, submitted.stderr);
  const runId = (parseNdjson<{ run: string }>(submitted.stdout)[0] as { run: string }).run;

  const firstDir = await testTempDir("cli-dispatch-lost-wf-a-");
  const first = startBaton(firstDir, ["worker", "--lease", LEASE], { env: storeEnv(url, FAST) });
  t.after(() => {
    first.kill();
    killProcessesNaming(marks);
  });
  await waitFor("the hold stage to hold", () => existsSync(join(marks, "hold"))).catch(async (error: unknown) => {
    throw new Error(`${(error as Error).message}\n${first.stdout}\n${(await storedEvents(repo, url, 1)).map((event) => JSON.stringify(event)).join("\n")}`);
  });
  const branch = (await storedEvents(repo, url, 1)).find((event) => event.type === "workspace.ready")?.data["branch"] as string;
  await waitFor("first's checkpoint on the remote", () => git(repo, "--git-dir", remote, "show", `${branch}:first.txt`).then(() => true, () => false));
  const killedAt = Date.now();
  first.child.kill("SIGKILL");
  await first.done;
  killProcessesNaming(marks);
  const before = await storedEvents(repo, url, 1);

  const secondDir = await testTempDir("cli-dispatch-lost-wf-b-");
  const second = startBaton(secondDir, ["worker", "--lease", LEASE], { env: storeEnv(url, FAST) });
  t.after(() => second.kill());
  await waitFor("the run to complete on the second worker", async () => (await storedEvents(repo, url, 1)).at(-1)?.type === "run.completed", 90_000);
  const events = await storedEvents(repo, url, 1);
  assert.deepEqual(events.slice(0, before.length), before, "the same log, continued");
  events.forEach((event, i) => assert.equal(event.seq, i + 1, "gapless"));
  const after = events.slice(before.length);
  const lostAt = after.findIndex((event) => event.type === "worker.lost");
  assert.equal(lostAt, 0, `worker.lost comes first: ${after.map((event) => event.type).join(", ")}`);
  assert.deepEqual([after[0]?.data["epoch"], after[0]?.data["last_seq"]], [1, before.at(-1)?.seq]);
  assert.match(String(after[0]?.data["previous_owner"]), new RegExp(`:${first.pid}:`));
  // The lost attempt: its open hold visit failed, then run.failed worker_lost; then attempt 2.
  const failed = after.find((event) => event.type === "run.failed");
  assert.equal(code(failed), "worker_lost");
  assert.match(String((failed?.data["error"] as { message?: string }).message), /continues on .* after stage first, from its checkpoint on the remote/);
  assert.deepEqual(after.filter((event) => event.type === "stage.failed").map((event) => [event.data["stage"], event.data["visit"]]), [["hold", 1]]);
  const started = after.filter((event) => event.type === "run.started");
  assert.deepEqual(started.map((event) => [event.data["attempt"], event.data["resumed"]]), [[2, true]]);
  assert.ok((failed?.seq ?? 0) < (started[0]?.seq ?? 0));
  process.stderr.write(`lost workflow run: continued on another worker ${Date.parse(started[0]?.at ?? "") - killedAt} ms after kill -9 (lease ${LEASE}, heartbeat 10 s)\n`);
  const ready = after.find((event) => event.type === "workspace.ready");
  assert.ok(String(ready?.data["path"]).startsWith(secondDir), "the run's worktree is now in the second worker's folder");
  assert.equal(ready?.data["branch"], branch);
  assert.deepEqual(after.filter((event) => event.type === "stage.started").map((event) => [event.data["stage"], event.data["visit"]]), [["hold", 1], ["second", 1], ["exit", 1]], "first never runs again; the visit in flight does");
  assert.deepEqual(finalEvents(events).map((event) => event.type), ["run.failed", "run.completed"], "one end per run.started");
  for (const [file, text] of [["first.txt", "first\n"], ["held.txt", "held\n"], ["second.txt", "second\n"]]) {
    assert.equal(await git(repo, "--git-dir", remote, "show", `${branch}:${file}`), text, `${file} is on the remote's branch`);
  }
  const epochs = await sql(url, "SELECT epoch::int AS epoch, min(seq)::int AS first FROM baton_events WHERE run_id = $1 GROUP BY epoch ORDER BY epoch", [runId]);
  assert.deepEqual(epochs.rows, [{ epoch: 1, first: 1 }, { epoch: 2, first: before.length + 1 }], "the lost worker's events, then the new one's");
  second.child.kill("SIGTERM");
  await second.done;
  assert.equal(await exportStoredLogs(url), 1);
});

test("a workflow run whose worker was lost with no checkpoint on the remote (its pushes refused): worker.lost, then run.failed worker_lost, once", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo, remote, marks, script } = await project("cli-dispatch-lost-wf-nopush-");
  // The remote takes no run branches: the run's checkpoints stay on the lost worker.
  const hook = join(remote, "hooks", "pre-receive");
  await writeFile(hook, "#!/bin/sh\nwhile read old new ref; do case $ref in refs/heads/baton/*) echo 'no run branches here' >&2; exit 1;; esac; done\n");
  await chmod(hook, 0o755);
  const submitted = await runBaton(repo, ["submit", "--workflow", "lost.dot", "--script", script, "Write two notes"], { env: storeEnv(url, FAST) });
  assert.equal(submitted.code, 0, submitted.stderr);
  const first = startBaton(await testTempDir("cli-dispatch-lost-wf-nopush-a-"), ["worker", "--lease", LEASE], { env: storeEnv(url, FAST) });
  t.after(() => {
    first.kill();
    killProcessesNaming(marks);
  });
  await waitFor("the hold stage to hold", () => existsSync(join(marks, "hold")));
  await first.waitForStdout("a push refused", (out) => /pushing baton\/.* failed/.test(out));
  first.child.kill("SIGKILL");
  await first.done;
  killProcessesNaming(marks);
  const second = startBaton(await testTempDir("cli-dispatch-lost-wf-nopush-b-"), ["worker", "--lease", LEASE], { env: storeEnv(url, FAST) });
  t.after(() => second.kill());
  await waitFor("the run to end", async () => {
    const events = await storedEvents(repo, url, 1);
    return events.some((event) => event.type === "worker.lost") && events.at(-1)?.type === "run.failed";
  }, 90_000);
  await second.waitForStdout("the second worker to say why", (out) => /no checkpoint of it is on the remote/.test(out));
  const events = await storedEvents(repo, url, 1);
  assert.deepEqual(finalEvents(events).map((event) => [event.type, code(event)]), [["run.failed", "worker_lost"]]);
  assert.match(String((events.at(-1)?.data["error"] as { message?: string }).message), /no checkpoint of it is on the remote/);
  assert.equal(events.filter((event) => event.type === "run.started").length, 1, "it did not start again");
  second.child.kill("SIGTERM");
  await second.done;
  assert.equal(await exportStoredLogs(url), 1);
});
