import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol";
import { SseReader } from "@baton/server/testing";
import { liveReaderCount } from "@baton/engine/store/testing";
import type { SseFrame } from "@baton/server/testing";
import { makeGate } from "@baton/testkit/gate";
import { cliEnv, makeRepo, runsDir, servedAt, startBaton, waitFor, writeScript } from "./cli-harness.ts";

const TEXT = "Reading the repository first, then the tests, and only then the code that they cover, one file at a time.";

/** The text of the agent.delta frames among `frames`, joined. */
const deltaText = (frames: readonly SseFrame[]) =>
  frames
    .filter((frame) => frame.data !== undefined)
    .map((frame) => JSON.parse(frame.data as string) as Envelope)
    .filter((event) => event.type === "agent.delta")
    .map((event) => String(event.data["text"]))
    .join("");

test("SSE: a run written by another process (baton run) streams agent.delta frames without id before its agent.message with id", async () => {
  const repo = await makeRepo("cli-serve-deltas-");
  // The agent speaks only once the server reads the run's live socket (deltas sent before are
  // gone by design), and its message lands (at the end of the turn) only once the stream has
  // carried every delta: the test opens each gate when it has seen that.
  const speak = await makeGate("speak");
  const finish = await makeGate("finish");
  const script = await writeScript(repo, "steps.json", [speak.step, { say: TEXT }, finish.step]);
  const served = startBaton(repo, ["serve", "--port", "0"], { env: cliEnv({ BATON_SERVE_TOKEN: "deltas-token-0123456789" }) });
  const run = startBaton(repo, ["run", "--agent", "fake", "--script", script, "--require-output", "none", "--", "Read the repository"]);
  try {
    const { base, auth } = await servedAt(served);
    let runId = "";
    await waitFor("the run to be listed", async () => {
      const listed = (await (await fetch(`${base}/api/runs`, { headers: auth })).json()) as { runs: Array<{ id: string }> };
      runId = listed.runs[0]?.id ?? "";
      return listed.runs.length === 1;
    });
    const reader = await SseReader.open(`${base}/api/runs/1/stream`, auth);
    assert.equal(reader.status, 200);
    await waitFor("the server to read the run's live socket", () => liveReaderCount(join(runsDir(repo), runId)) >= 1);
    await speak.open();
    await reader.waitFor("every delta", (frames) => deltaText(frames).length >= TEXT.length);
    await finish.open();
    await reader.ended;
    assert.equal((await run.done).code, 0, run.stderr);

    const frames = reader.frames.filter((frame) => frame.data !== undefined).map((frame) => ({ id: frame.id, event: JSON.parse(frame.data as string) as Envelope }));
    const messageAt = frames.findIndex((frame) => frame.event.type === "agent.message");
    assert.ok(messageAt > 0, "the message arrived");
    assert.equal(frames[messageAt]?.id, String(frames[messageAt]?.event.seq), "the message has its seq as id");
    const deltas = frames.filter((frame) => frame.event.type === "agent.delta");
    assert.ok(deltas.length >= 3, `the text streamed in several deltas, got ${deltas.length}`);
    for (const delta of deltas) {
      assert.equal(delta.id, undefined, "a delta has no id");
      assert.equal(delta.event.seq, undefined);
    }
    assert.ok(frames.slice(messageAt).every((frame) => frame.event.type !== "agent.delta"), "no delta after the message it streamed");
    assert.equal(deltaText(reader.frames), TEXT, "the deltas join to the message");
    assert.deepEqual(
      frames.filter((frame) => frame.id !== undefined).map((frame) => frame.event.seq),
      frames.filter((frame) => frame.id !== undefined).map((_, index) => index + 1),
      "the durable events, all and in order",
    );
  } finally {
    run.kill();
    served.child.kill("SIGTERM");
    await served.done;
  }
});
