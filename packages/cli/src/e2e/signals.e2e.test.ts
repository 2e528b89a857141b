import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { testTempDir } from "@baton/protocol/testing";
import { SseReader } from "@baton/server/testing";
import { cliEnv, killGroup, killProcessesNaming, makeRepo, readEvents, runBaton, servedAt, startBaton, waitFor, waitForAgentGroup, waitForEvent, waitForOnlyRun, writeScript, type BatonProcess, type CliResult } from "./cli-harness.ts";

// Each long-running command ends on the first SIGINT or SIGTERM: one signal, then the test
// only waits for the exit. A command that needs a second signal fails on the harness's timeout.

const SIGNALS = ["SIGINT", "SIGTERM"] as const;
const SHORT_SCRIPT = [{ say: "Looking around." }, { run: "echo one" }, { write: { path: "out.txt", content: "two\n" } }, { say: "Done." }];
const LONG_SCRIPT = [{ say: "Waiting." }, { run: "echo started" }, { sleep: 600_000 }, { say: "never said" }];

/** Sends `signal` once and returns how the process ended. */
async function endWith(process: BatonProcess, signal: NodeJS.Signals): Promise<CliResult> {
  process.child.kill(signal);
  return process.done;
}

/** A run of LONG_SCRIPT waiting in its sleep, its command done: returns the runner and the run id. */
async function waitingRun(t: test.TestContext, repo: string, name: string): Promise<{ run: BatonProcess; runId: string }> {
  const script = await writeScript(repo, name, LONG_SCRIPT);
  const run = startBaton(repo, ["run", "Wait", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the command before the wait", (event) => event.type === "tool.completed");
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  return { run, runId };
}

for (const signal of ["SIGTERM", "SIGHUP"] as const) {
  test(`${signal} to baton run cancels the run: exit 130, run.cancelled by user`, async (t) => {
    const repo = await makeRepo("cli-signal-run-");
    const { run, runId } = await waitingRun(t, repo, "long.json");
    const result = await endWith(run, signal);
    assert.equal(result.code, 130, result.stderr);
    const events = await readEvents(repo, runId);
    assert.equal(events.at(-1)?.type, "run.cancelled");
    assert.equal(events.at(-1)?.data["by"], "user");
    assert.equal(events.at(-1)?.data["reason"], `received ${signal}`);
  });
}

test("baton events --follow (the feed, caught up) ends with exit 0 on the first SIGINT or SIGTERM", async (t) => {
  const repo = await makeRepo("cli-signal-feed-");
  const script = await writeScript(repo, "short.json", SHORT_SCRIPT);
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  for (const signal of SIGNALS) {
    const follower = startBaton(repo, ["events", "--follow", "--json"]);
    t.after(() => follower.kill());
    await follower.waitForStdout("the feed so far", (stdout) => stdout.includes('"type":"run.completed"'));
    const result = await endWith(follower, signal);
    assert.equal(result.code, 0, `${signal}: ${result.stderr}`);
  }
});

test("baton events RUN --follow (a live, idle run) ends with exit 0 on the first SIGINT or SIGTERM", async (t) => {
  const repo = await makeRepo("cli-signal-follow-");
  const { run } = await waitingRun(t, repo, "long.json");
  for (const signal of SIGNALS) {
    const follower = startBaton(repo, ["events", "1", "--follow", "--json"]);
    t.after(() => follower.kill());
    await follower.waitForStdout("the run's events so far", (stdout) => stdout.includes('"type":"tool.completed"'));
    const result = await endWith(follower, signal);
    assert.equal(result.code, 0, `${signal}: ${result.stderr}`);
  }
  assert.ok(run.running, "following a run does not end it");
});

test("baton serve with a client on the caught-up feed stops with exit 0 on the first SIGINT or SIGTERM", async (t) => {
  const repo = await makeRepo("cli-signal-serve-");
  const script = await writeScript(repo, "short.json", SHORT_SCRIPT);
  assert.equal((await runBaton(repo, ["run", "--agent", "fake", "--script", script])).code, 0);
  for (const signal of SIGNALS) {
    const served = startBaton(repo, ["serve", "--port", "0"]);
    t.after(() => served.kill());
    const { port, token } = await servedAt(served);
    const feed = await SseReader.open(`http://127.0.0.1:${port}/api/stream?token=${token}`);
    t.after(() => feed.close());
    await feed.waitFor("the feed so far", () => feed.events<Envelope>().some((event) => event.type === "run.completed"));
    const result = await endWith(served, signal);
    assert.equal(result.code, 0, `${signal}: ${result.stderr}`);
    await feed.ended;
  }
});

test("baton cancel waiting for a run that takes its time ends on the first SIGINT or SIGTERM: exit 130, the run still asked to cancel", async (t) => {
  const repo = await makeRepo("cli-signal-cancel-");
  // The agent does not answer the cancel, and Baton gives it ten minutes: the run stays
  // cancelling for as long as this test needs.
  await writeFile(join(repo, ".baton", "config.toml"), "[session]\ncancel_grace_ms = 600000\n");
  const script = await writeScript(repo, "hang.json", [{ say: "Busy." }, { run: "echo started" }, { hang: 600_000 }]);
  const run = startBaton(repo, ["run", "Hang", "--agent", "fake", "--script", script, "--json"]);
  t.after(() => run.kill());
  const runId = await waitForOnlyRun(repo);
  await waitForEvent(repo, runId, "the command before the hang", (event) => event.type === "tool.completed");
  const agentGroup = await waitForAgentGroup(script);
  t.after(() => killGroup(agentGroup));
  for (const signal of SIGNALS) {
    const cancel = startBaton(repo, ["cancel", "1"]);
    t.after(() => cancel.kill());
    await cancel.waitForStdout("the wait", (stdout) => stdout.includes("waiting for it to end"));
    const result = await endWith(cancel, signal);
    assert.equal(result.code, 130, `${signal}: ${result.stderr}`);
    assert.match(result.stdout, /stopped waiting: run 1 was asked to cancel and has not ended yet\n$/);
  }
  assert.ok(run.running, "the run is still cancelling");
  assert.ok(!(await readEvents(repo, runId)).some((event) => event.type === "run.cancelled"));
});

test("baton demo ends on the first SIGINT or SIGTERM: its run is cancelled, exit 130", async (t) => {
  for (const signal of SIGNALS) {
    // The demo's command runs `node` from PATH: a stand-in that waits until the test ends it
    // holds the demo in its tool call.
    const home = await testTempDir("cli-signal-demo-");
    const bin = join(home, "bin");
    await mkdir(bin);
    await writeFile(join(bin, "node"), `#!/bin/sh\ntouch "${home}/started"\nwhile :; do sleep 0.1; done\n`);
    await chmod(join(bin, "node"), 0o755);
    const demo = startBaton(home, ["demo"], { env: cliEnv({ TMPDIR: home, PATH: `${bin}:${process.env["PATH"] ?? ""}` }) });
    t.after(() => demo.kill());
    t.after(() => killProcessesNaming(bin));
    await waitFor("the demo's command to start", () => existsSync(join(home, "started")));
    const result = await endWith(demo, signal);
    assert.equal(result.code, 130, `${signal}: ${result.stderr}`);
    assert.match(result.stdout, /cancelled by user/);
  }
});
