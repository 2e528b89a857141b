import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { SseReader } from "@baton/server/testing";
import { cpuSecondsOver, killGroup, makeRepo, runBaton, servedAt, startBaton, waitForAgentGroup, waitForEvent, waitForOnlyRun, writeScript } from "./cli-harness.ts";

/** The window over which an idle process's CPU time is measured. */
const IDLE_WINDOW_MS = 3_000;
/**
 * Most CPU a waiting follower may use in that window: its polls and timers take a few
 * milliseconds. A follower that re-reads in a loop uses most of a core (over 2 s here), and
 * still well over this bound when the machine is shared with other busy processes.
 */
const IDLE_CPU_BOUND_S = 0.3;

const SHORT_SCRIPT = [{ say: "Looking around." }, { run: "echo one" }, { write: { path: "out.txt", content: "two\n" } }, { say: "Done." }];

test("a caught-up follower of the feed (baton events --follow) waits without using CPU", async (t) => {
  const repo = await makeRepo("cli-idle-feed-");
  const script = await writeScript(repo, "short.json", SHORT_SCRIPT);
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  const follower = startBaton(repo, ["events", "--follow", "--json"]);
  t.after(() => follower.kill());
  await follower.waitForStdout("the whole feed so far", (stdout) => stdout.includes('"type":"run.completed"'));

  const used = await cpuSecondsOver(follower.pid, IDLE_WINDOW_MS);
  assert.ok(used < IDLE_CPU_BOUND_S, `the idle follower used ${used.toFixed(2)} s of CPU in ${IDLE_WINDOW_MS} ms`);
  assert.ok(follower.running, "it still waits for more");
  follower.child.kill("SIGINT");
  assert.equal((await follower.done).code, 0);
});

test("a caught-up follower of a live run (baton events RUN --follow) waits without using CPU", async (t) => {
  const repo = await makeRepo("cli-idle-run-");
  const script = await writeScript(repo, "long.json", [{ say: "Waiting." }, { run: "echo started" }, { sleep: 600_000 }]);
  const run = startBaton(repo, ["run", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the command before the wait", (event) => event.type === "tool.completed");
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  const follower = startBaton(repo, ["events", "1", "--follow", "--json"]);
  t.after(() => follower.kill());
  await follower.waitForStdout("the run's events so far", (stdout) => stdout.includes('"type":"tool.completed"'));

  const used = await cpuSecondsOver(follower.pid, IDLE_WINDOW_MS);
  assert.ok(used < IDLE_CPU_BOUND_S, `the idle follower used ${used.toFixed(2)} s of CPU in ${IDLE_WINDOW_MS} ms`);
  run.child.kill("SIGINT");
  assert.equal((await run.done).code, 130);
  const followed = await follower.done;
  assert.equal(followed.code, 0, followed.stderr);
  assert.match(followed.stdout, /"type":"run\.cancelled"/);
});

test("baton serve idles without using CPU while a client follows the caught-up feed, and after the client has left", async (t) => {
  const repo = await makeRepo("cli-idle-serve-");
  const script = await writeScript(repo, "short.json", SHORT_SCRIPT);
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  const served = startBaton(repo, ["serve", "--port", "0"]);
  t.after(() => served.kill());
  const { port, token } = await servedAt(served);
  const feed = await SseReader.open(`http://127.0.0.1:${port}/api/stream?token=${token}`);
  t.after(() => feed.close());
  await feed.waitFor("the feed so far", () => feed.events<Envelope>().some((event) => event.type === "run.completed"));

  const following = await cpuSecondsOver(served.pid, IDLE_WINDOW_MS);
  assert.ok(following < IDLE_CPU_BOUND_S, `the server used ${following.toFixed(2)} s of CPU in ${IDLE_WINDOW_MS} ms with one idle client`);
  feed.close();
  await feed.ended;
  const left = await cpuSecondsOver(served.pid, IDLE_WINDOW_MS);
  assert.ok(left < IDLE_CPU_BOUND_S, `the server used ${left.toFixed(2)} s of CPU in ${IDLE_WINDOW_MS} ms after its client left`);

  served.child.kill("SIGTERM");
  const result = await served.done;
  assert.equal(result.code, 0, result.stderr);
});
