import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { linesOf, makeRepo, runBaton, startBaton, waitForEvent, waitForOnlyRun, writeScript } from "./cli-harness.ts";

const TEXT = "First the repository, then its tests, then the code the tests cover, one file at a time.";

test("baton events RUN --follow --deltas shows the streamed text in place; without --deltas, --json stays durable-only", async () => {
  const repo = await makeRepo("cli-events-deltas-");
  // The sleep first leaves time for the followers to connect before the text streams.
  const script = await writeScript(repo, "steps.json", [{ sleep: 2500 }, { say: TEXT }, { sleep: 300 }]);
  const run = startBaton(repo, ["run", "--agent", "fake", "--script", script, "--require-output", "none", "--", "Read"]);
  try {
    const runId = await waitForOnlyRun(repo);
    await waitForEvent(repo, runId, "run.started", (event) => event.type === "run.started");
    const withDeltas = startBaton(repo, ["events", "1", "--follow", "--json", "--deltas"]);
    const durableOnly = startBaton(repo, ["events", "1", "--follow", "--json"]);
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
    assert.equal(deltas.map((event) => String(event.data["text"])).join(""), TEXT);
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
