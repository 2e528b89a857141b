import assert from "node:assert/strict";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { questionLog } from "@baton/engine/input";
import { beginRun, listenForTest, makeProject, TEST_TOKEN } from "@baton/server/testing";
import { foldRun, type Envelope } from "@baton/protocol/core";
import { httpSource } from "./http-source.ts";
import { sseFrames } from "./sse-frames.ts";

test("over a baton serve URL: the run list, a run's events then live ones to its end, its actions, and a call's whole output", async (t) => {
  const { root, store } = await makeProject("tui-http-");
  const server = await listenForTest(store, root);
  t.after(() => server.close());
  t.after(() => store.close());
  const writer = await beginRun(store, "Ship the flag");
  writer.append("tool.started", { session: "s", call: "call_1", tool: "read", kind: "read" });
  await mkdir(join(writer.dir, "outputs"), { recursive: true });
  await writeFile(join(writer.dir, "outputs", "call_1.txt"), "the whole output\nof the call\n");
  writer.append("tool.completed", { session: "s", call: "call_1", tool: "read", status: "completed", is_error: false, duration_ms: 3, output_chars: 28, output_file: "outputs/call_1.txt" });
  writer.append("permission.requested", { session: "s", call: "call_2", tool: "execute", options: [], awaiting: "person", rule: "ask-run" });
  await writer.flush();
  const source = httpSource(server.url, TEST_TOKEN, "ada");

  const runs = await source.listRuns();
  assert.deepEqual(runs.map((run) => [run.number, run.status, run.task]), [[1, "running", "Ship the flag"]]);

  const stop = new AbortController();
  t.after(() => stop.abort());
  const seen: Envelope[] = [];
  const followed = (async () => {
    for await (const event of source.follow(writer.runId, stop.signal)) seen.push(event);
  })();
  await until(() => seen.some((event) => event.type === "permission.requested"));
  const state = foldRun(seen);
  const questions = questionLog(seen);

  await source.steer(writer.runId, state, "keep the API");
  await source.answer(writer.runId, state, questions, "call_2", "allow");
  const requests = (await readdir(join(writer.dir, "requests"))).filter((name) => !name.startsWith(".")).sort();
  assert.equal(requests.length, 2);
  assert.match(requests[0] ?? "", /^input-in_[0-9a-f]{12}\.json$/);
  assert.match(requests[1] ?? "", /^permission-.+\.json$/);
  await assert.rejects(source.answer(writer.runId, state, questions, "call_2", "deny"), (error: Error & { code?: string }) => {
    assert.equal(error.code, "answer_conflict");
    assert.match(error.message, /call_2 was answered already \(allow by ada\)/);
    return true;
  });
  await assert.rejects(source.decide(writer.runId, state, { kind: "approve" }), /run 1 is running, not waiting at a gate/);
  assert.equal(await source.readOutput(writer.runId, { call: "call_1", tool: "read", status: "completed", output_file: "outputs/call_1.txt" }), "the whole output\nof the call\n");
  await assert.rejects(source.readOutput(writer.runId, { call: "call_9", tool: "read", status: "completed" }), /run 1 has no output for call call_9/);

  // Live events arrive on the same stream; the stream ends after the run's final event.
  writer.append("permission.resolved", { session: "s", call: "call_2", decision: "allow_once", by: "human", rule: "ask-run", who: "ada" });
  writer.append("agent.message", { session: "s", turn: 1, text: "live one" });
  writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
  await writer.close();
  await followed;
  assert.deepEqual(seen.map((event) => event.seq), seen.map((_, index) => index + 1), "every event once, in order");
  assert.equal(seen.at(-1)?.type, "run.completed");
  await assert.rejects(source.steer(writer.runId, foldRun(seen), "too late"), /run 1 is succeeded, so nothing can steer it/);
  await assert.rejects(source.cancel(writer.runId), /run 1 already ended \(succeeded\)/);
});

test("a wrong token and an unreachable server are one-line errors naming the fix", async (t) => {
  const { root, store } = await makeProject("tui-http-bad-");
  const server = await listenForTest(store, root);
  t.after(() => server.close());
  await assert.rejects(httpSource(server.url, "not-the-token-000000", "ada").listRuns(), (error: Error & { code?: string; hint?: string }) => {
    assert.equal(error.code, "unauthorized");
    assert.equal(error.message, "the token is not this server's");
    return true;
  });
  await assert.rejects(httpSource("http://127.0.0.1:1", TEST_TOKEN, "ada").listRuns(), /could not reach http:\/\/127\.0\.0\.1:1 .*/);
});

test("server-sent event frames: ids, names, several data lines, comments and retry skipped, split anywhere across chunks", async () => {
  const text = "retry: 2000\n\n: ping\n\nid: 1\ndata: {\"a\":1}\n\nevent: resync\ndata: {\"after\":1}\n\ndata: one\ndata: two\r\n\r\n";
  const encoder = new TextEncoder();
  for (const size of [1, 3, 7, text.length]) {
    const chunks = async function* () {
      for (let index = 0; index < text.length; index += size) yield encoder.encode(text.slice(index, index + size));
    };
    const frames = [];
    for await (const frame of sseFrames(chunks())) frames.push(frame);
    assert.deepEqual(frames, [
      { event: "message", data: '{"a":1}', id: "1" },
      { event: "resync", data: '{"after":1}' },
      { event: "message", data: "one\ntwo" },
    ], `in chunks of ${size}`);
  }
});

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("not in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
