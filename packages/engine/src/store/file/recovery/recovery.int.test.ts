import assert from "node:assert/strict";
import { test } from "node:test";
import { INTERRUPTED_CODE } from "./recovery.ts";
import { openStore } from "../open-store.ts";
import { collect, makeBatonDir, spawnFixture, steppingClock } from "../test-fixtures/temp-store.ts";

const started = { attempt: 1, resumed: false, pid: 4242, host: "h" };

test("recoverIfAbandoned appends exactly one run.failed interrupted, and is idempotent", async (t) => {
  const batonDir = await makeBatonDir(t);
  const child = spawnFixture(t, "hold-writer.ts", [batonDir, "new"]);
  const [, runId, pid] = (await child.line()).split(" ");
  assert.ok(runId !== undefined);
  await using store = await openStore(batonDir);
  assert.equal(await store.recoverIfAbandoned(runId), undefined, "a live writer is not abandoned");
  child.process.stdin?.write("crash\n");
  await child.exited;

  const recovered = await store.recoverIfAbandoned(runId);
  assert.equal(recovered?.pid, Number(pid));
  assert.equal(recovered?.event.type, "run.failed");
  assert.deepEqual(recovered?.event.data, {
    error: { code: INTERRUPTED_CODE, message: `the process writing this run stopped before the run ended (pid ${pid})` },
  });
  assert.equal(await store.recoverIfAbandoned(runId), undefined);
  await using other = await openStore(batonDir);
  assert.equal(await other.recoverIfAbandoned(runId), undefined);

  const events = await collect(store.readRun(runId));
  assert.deepEqual(events.map((event) => event.type), ["run.created", "run.started", "run.failed"]);
  assert.equal((await store.getRun(runId))?.status, "failed");
});

test("a run that never got run.started is abandoned just the same", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const writer = await store.createRun({ task: "t", agent: "a", repo: { root: "/", dirty: false } });
  await writer.close();
  const recovered = await store.recoverIfAbandoned(writer.runId);
  assert.equal(recovered?.event.seq, 2);
  assert.equal((await store.getRun(writer.runId))?.status, "failed");
});

test("a dead writer's open tool call, turn and agent session are closed before run.failed", async (t) => {
  await using store = await openStore(await makeBatonDir(t), { now: steppingClock() });
  const writer = await store.createRun({ task: "t", agent: "fake", repo: { root: "/", dirty: false } });
  const session = "ses_1";
  writer.append("run.started", started);
  writer.append("agent.started", { session, agent: "fake", protocol_version: 1 });
  writer.append("turn.started", { session, turn: 1, reason: "task" });
  writer.append("usage.updated", { session, basis: "delta", input_tokens: 5, output_tokens: 2 });
  writer.append("tool.started", { session, call: "c_1", tool: "run", kind: "execute" });
  // The writer goes away without a final event: its lock is released, nobody writes the run.
  await writer.close();

  const recovered = await store.recoverIfAbandoned(writer.runId);
  assert.equal(recovered?.event.type, "run.failed");
  const events = await collect(store.readRun(writer.runId, { after: 6 }));
  const error = { code: INTERRUPTED_CODE, message: "the process writing this run stopped before the run ended (pid 4242)" };
  assert.deepEqual(
    events.map((event) => [event.type, event.data]),
    [
      ["tool.completed", { session, call: "c_1", tool: "run", status: "cancelled", is_error: true, duration_ms: events[0]?.data["duration_ms"], output_chars: 0, error }],
      ["turn.completed", { session, turn: 1, stop_reason: "cancelled", duration_ms: events[1]?.data["duration_ms"], error }],
      ["agent.finished", { session, turns: 1, usage: { input_tokens: 5, output_tokens: 2, cache_read_tokens: 0, cache_write_tokens: 0 } }],
      ["run.failed", { error }],
    ],
  );
  assert.ok((events[1]?.data["duration_ms"] as number) > (events[0]?.data["duration_ms"] as number), "each end is timed from its own start");
  assert.equal((await store.getRun(writer.runId))?.status, "failed");
  assert.equal(await store.recoverIfAbandoned(writer.runId), undefined, "recovery runs once");
});

test("a paused run and a finished run are not abandoned", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const paused = await store.createRun();
  paused.append("run.started", started);
  paused.append("run.paused", { reason: "approval" });
  await paused.close();
  const done = await store.createRun();
  done.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
  await done.close();
  assert.equal(await store.recoverIfAbandoned(paused.runId), undefined);
  assert.equal(await store.recoverIfAbandoned(done.runId), undefined);
  assert.equal((await store.getRun(paused.runId))?.status, "paused");
  assert.equal((await store.getRun(paused.runId))?.last_seq, 2);
});

test("a resumed run whose writer died is abandoned again", async (t) => {
  await using store = await openStore(await makeBatonDir(t));
  const first = await store.createRun();
  first.append("run.started", started);
  first.append("run.paused", { reason: "approval" });
  await first.close();
  const resumed = await store.openWriter(first.runId);
  resumed.append("run.started", { ...started, attempt: 2, resumed: true });
  await resumed.close();
  assert.equal((await store.recoverIfAbandoned(first.runId))?.event.seq, 4);
});

test("listing runs recovers every run whose writer is dead, and leaves live ones alone", async (t) => {
  const batonDir = await makeBatonDir(t);
  const dead = spawnFixture(t, "hold-writer.ts", [batonDir, "new"]);
  const [, deadRun] = (await dead.line()).split(" ");
  dead.process.kill("SIGKILL");
  await dead.exited;
  const live = spawnFixture(t, "hold-writer.ts", [batonDir, "new"]);
  const [, liveRun] = (await live.line()).split(" ");
  await using store = await openStore(batonDir);
  const runs = await store.listRuns();
  assert.equal(runs.find((run) => run.id === deadRun)?.status, "failed");
  assert.equal(runs.find((run) => run.id === liveRun)?.status, "running");
  assert.deepEqual((await store.listRuns({ status: "failed" })).map((run) => run.id), [deadRun]);
  live.process.stdin?.write("close\n");
  await live.exited;
});
