import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { sql, testDatabase } from "@baton/engine/store/postgres-testing";
import { testTempDir } from "@baton/protocol/testing";
import { parseNdjson, runBaton, startBaton, waitFor, writeScript } from "./cli-harness.ts";
import { exportStoredLogs, finalEvents, repoWithRemote, storedEvents, storeEnv } from "./dispatch-harness.ts";
import { fakeAgentsPlaying, killProcessesNaming } from "./process-probe.ts";

/** Short leases, and pg-boss's shortest heartbeat: a lost worker is noticed in seconds. */
const LEASE = "3s";
const LEASE_MS = 3_000;
const FAST = { BATON_DISPATCH_HEARTBEAT: "10" };

test("a worker stopped past its lease (SIGSTOP) loses its run: another records worker.lost and fails it worker_lost; woken (SIGCONT), the zombie's next write is refused and its agent cancelled", async (t) => {
  const url = await testDatabase(t);
  if (url === undefined) return;
  const { repo } = await repoWithRemote("cli-dispatch-zombie-");
  const script = await writeScript(repo, "long.json", [{ say: "working" }, { sleep: 600_000 }]);
  const submitted = await runBaton(repo, ["submit", "--script", script, "--require-output", "none", "--json"], { env: storeEnv(url, FAST) });
  assert.equal(submitted.code, 0, submitted.stderr);
  const runId = (parseNdjson<{ run: string }>(submitted.stdout)[0] as { run: string }).run;

  const zombieDir = await testTempDir("cli-dispatch-zombie-a-");
  const zombie = startBaton(zombieDir, ["worker", "--lease", LEASE], { env: storeEnv(url, FAST) });
  t.after(() => {
    if (zombie.running) zombie.child.kill("SIGCONT");
    zombie.kill();
    killProcessesNaming(zombieDir);
  });
  await waitFor("the agent at work on the first worker", async () => (await storedEvents(repo, url, 1)).some((event) => event.type === "agent.message" || event.type === "turn.started"));
  const agentScript = join(zombieDir, ".baton-worker", "scripts", `${runId}.json`);
  await waitFor("the fake agent's process", () => fakeAgentsPlaying(agentScript).length > 0);
  const before = await storedEvents(repo, url, 1);

  zombie.child.kill("SIGSTOP");
  const rescuer = startBaton(await testTempDir("cli-dispatch-zombie-b-"), ["worker", "--lease", LEASE], { env: storeEnv(url, FAST) });
  t.after(() => rescuer.kill());
  await waitFor("the run taken over and ended", async () => finalEvents(await storedEvents(repo, url, 1)).length > 0, 60_000);
  const events = await storedEvents(repo, url, 1);
  const lost = events.find((event) => event.type === "worker.lost");
  assert.ok(lost !== undefined, "worker.lost is recorded");
  assert.equal(lost.data["epoch"], 1);
  assert.equal(lost.data["last_seq"], before.at(-1)?.seq);
  assert.match(String(lost.data["previous_owner"]), new RegExp(`:${zombie.pid}:`));
  assert.deepEqual(finalEvents(events).map((event) => [event.type, (event.data["error"] as { code?: string } | undefined)?.code]), [["run.failed", "worker_lost"]]);

  const lastSeq = events.at(-1)?.seq ?? 0;
  zombie.child.kill("SIGCONT");
  // Within a heartbeat (a third of the lease) the zombie finds its lease gone: it stops and cancels its agent.
  await zombie.waitForStdout("the zombie to find its lease lost", (out) => /no longer held by this process/.test(out));
  await waitFor("the zombie's agent to end", () => fakeAgentsPlaying(agentScript).length === 0, LEASE_MS * 2);
  const after = await storedEvents(repo, url, 1);
  assert.equal(after.at(-1)?.seq, lastSeq, "nothing was written after the run ended");
  const stale = await sql(url, "SELECT count(*)::int AS n FROM baton_events WHERE run_id = $1 AND epoch = 1 AND seq > $2", [runId, lost.data["last_seq"]]);
  assert.equal(stale.rows[0]?.n, 0, "no event of the stale epoch after the takeover");
  zombie.child.kill("SIGTERM");
  rescuer.child.kill("SIGTERM");
  await Promise.all([zombie.done, rescuer.done]);
  assert.equal(await exportStoredLogs(url), 1);
});
