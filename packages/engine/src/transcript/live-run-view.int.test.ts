import assert from "node:assert/strict";
import { test, type TestContext } from "node:test";
import { foldRunView } from "@baton/transcript";
import type { Envelope } from "@baton/protocol/core";
import { Redactor } from "../redaction/redactor.ts";
import { RunSink } from "../run/run-sink.ts";
import { openStore } from "../store/file/open-store.ts";
import { makeBatonDir } from "../store/file/test-fixtures/temp-store.ts";
import { LiveRunView } from "./live-run-view.ts";

/** The events here carry only what a transcript reads, not every field the catalog asks for: their logs are not validated. */
const batonDir = (t: TestContext) => makeBatonDir(t, { validateLogs: false });

async function readAll(log: AsyncIterable<Envelope>): Promise<Envelope[]> {
  const events: Envelope[] = [];
  for await (const event of log) events.push(event);
  return events;
}

/** A short run as a sink appends it: a turn with a message and a tool call, then the run's end. */
function playRun(sink: RunSink): void {
  sink.append("run.created", { number: 1, task: "write a.txt", agent: "fake" });
  sink.append("turn.started", { session: "s1", turn: 1, reason: "task" });
  sink.append("agent.message", { session: "s1", turn: 1, text: "Writing a.txt " });
  sink.append("agent.message", { session: "s1", turn: 1, text: "now." });
  sink.append("tool.started", { session: "s1", call: "c1", tool: "write", kind: "edit", title: "Write a.txt" });
  sink.append("tool.completed", { session: "s1", call: "c1", status: "completed", duration_ms: 3 });
  sink.append("turn.completed", { session: "s1", turn: 1, stop_reason: "end_turn", usage: { input_tokens: 12, output_tokens: 3 } });
  sink.append("run.completed", { status: "succeeded", usage: { input_tokens: 12, output_tokens: 3 }, duration_ms: 40 });
}

test("a new run's view, folded as its sink appends, is its closed log's view", async (t) => {
  await using store = await openStore(await batonDir(t));
  const writer = await store.createRun();
  const sink = new RunSink(writer, new Redactor([]));
  const live = new LiveRunView(sink, writer);
  playRun(sink);
  await writer.close();
  const view = live.view(writer);
  assert.ok(view !== undefined, "the fold saw the whole log");
  assert.deepEqual(view, foldRunView(await readAll(writer.readLog())));
  assert.equal(view.outcome?.status, "succeeded");
});

test("an event appended past the sink leaves the view to the log: in the middle or at the end", async (t) => {
  await using store = await openStore(await batonDir(t));
  for (const where of ["middle", "end"]) {
    const writer = await store.createRun();
    const sink = new RunSink(writer, new Redactor([]));
    const live = new LiveRunView(sink, writer);
    sink.append("run.created", { number: writer.number, task: "t", agent: "fake" });
    if (where === "middle") writer.append("log", { level: "warn", message: "written by the writer's own hand" });
    sink.append("turn.started", { session: "s1", turn: 1, reason: "task" });
    if (where === "end") writer.append("log", { level: "warn", message: "written by the writer's own hand" });
    await writer.close();
    assert.equal(live.view(writer), undefined, `an event past the sink at the ${where}`);
  }
});

test("a run whose log already holds events (resumed, taken over) is folded from its log, not live", async (t) => {
  await using store = await openStore(await batonDir(t));
  const first = await store.createRun();
  new RunSink(first, new Redactor([])).append("run.created", { number: 1, task: "t", agent: "fake" });
  await first.close();
  const writer = await store.openWriter(first.runId, { resumeFailed: true });
  const sink = new RunSink(writer, new Redactor([]));
  const live = new LiveRunView(sink, writer);
  sink.append("run.completed", { status: "succeeded" });
  await writer.close();
  assert.equal(live.view(writer), undefined);
});

test("an event the fold cannot take leaves the view to the log and never fails the append", () => {
  let listener: ((event: Envelope) => void) | undefined;
  const sink = { onAppend: (l: (event: Envelope) => void) => ((listener = l), () => (listener = undefined)) };
  const live = new LiveRunView(sink, { lastSeq: 0 });
  const broken = { v: 1, run: "run_x", seq: 1, at: "2026-12-07T10:00:00.000Z", type: "agent.message", data: null } as unknown as Envelope;
  assert.doesNotThrow(() => listener?.(broken));
  assert.equal(live.view({ lastSeq: 1 }), undefined);
  assert.equal(listener, undefined, "the view stopped following the run");
});
