import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { liveReaderCount } from "@baton/engine/store/testing";
import { makeGate } from "@baton/testkit/gate";
import { linesOf, makeRepo, parseNdjson, runBaton, runsDir, startBaton, waitFor, waitForEvent, waitForOnlyRun, writeScript } from "./cli-harness.ts";

const TEXT = "First the repository, then its tests, then the code the tests cover, one file at a time.";

/** The text of the agent.delta events among `events`, joined. */
const deltaText = (events: readonly Envelope[]) =>
  events
    .filter((event) => event.type === "agent.delta")
    .map((event) => String(event.data["text"]))
    .join("");

test("baton events RUN --follow --deltas shows the streamed text in place; without --deltas, --json stays durable-only", async (t) => {
  const repo = await makeRepo("cli-events-deltas-");
  // The agent speaks only once the --deltas follower reads the live socket (deltas sent before
  // are gone by design), and its message lands (at the end of the turn) only once the
  // follower has printed every delta: the test opens each gate when it has seen that.
  const speak = await makeGate("speak");
  const finish = await makeGate("finish");
  const script = await writeScript(repo, "steps.json", [speak.step, { say: TEXT }, finish.step]);
  const run = startBaton(repo, ["run", "--agent", "fake", "--script", script, "--require-output", "none", "--", "Read"]);
  try {
    const runId = await waitForOnlyRun(repo);
    await waitForEvent(repo, runId, "run.started", (event) => event.type === "run.started");
    const withDeltas = startBaton(repo, ["events", "1", "--follow", "--json", "--deltas"]);
    const durableOnly = startBaton(repo, ["events", "1", "--follow", "--json"]);
    t.after(() => withDeltas.kill());
    t.after(() => durableOnly.kill());
    await waitFor("the --deltas follower to read the live socket", () => liveReaderCount(join(runsDir(repo), runId)) >= 1);
    await speak.open();
    await withDeltas.waitForStdout("every delta", (stdout) => deltaText(parseNdjson<Envelope>(stdout)).length >= TEXT.length);
    await finish.open();
    const [deltasResult, durableResult, runResult] = await Promise.all([withDeltas.done, durableOnly.done, run.done]);
    assert.equal(runResult.code, 0, runResult.stderr);
    assert.equal(deltasResult.code, 0, deltasResult.stderr);
    assert.equal(durableResult.code, 0, durableResult.stderr);

    const durable = linesOf(durableResult.stdout).map((line) => JSON.parse(line) as Envelope);
    assert.ok(durable.every((event) => event.seq !== undefined), "no delta without --deltas");
    const all = linesOf(deltasResult.stdout).map((line) => JSON.parse(line) as Envelope);
    assert.deepEqual(all.filter((event) => event.seq !== undefined), durable, "the same durable events, in order");
    const deltas = all.filter((event) => event.type === "agent.delta");
    assert.ok(deltas.length >= 3, `several deltas, got ${deltas.length}`);
    assert.equal(deltaText(all), TEXT);
    const messageAt = all.findIndex((event) => event.type === "agent.message");
    assert.ok(all.slice(messageAt).every((event) => event.type !== "agent.delta"), "every delta comes before the message it streamed");
  } finally {
    run.kill();
  }
});

test("--deltas without --follow or without RUN is a usage error (exit 2)", async () => {
  const repo = await makeRepo("cli-events-deltas-usage-");
  for (const args of [["events", "1", "--deltas"], ["events", "--follow", "--deltas"]]) {
    const result = await runBaton(repo, args);
    assert.equal(result.code, 2, args.join(" "));
    assert.match(result.stderr, /--deltas needs --follow and a RUN/);
  }
});
