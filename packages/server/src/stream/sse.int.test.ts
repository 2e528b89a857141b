import assert from "node:assert/strict";
import { test } from "node:test";
import type { RunStoreWriter } from "@baton/engine/store";
import { SseReader } from "../testing/sse-reader.ts";
import { appendLogs, AUTH, beginRun, COMPLETED, finishedRun, listenForTest, makeProject, range } from "../testing/server-fixtures.ts";
import type { RunningServer } from "../serve/start-server.ts";

type Fixture = Awaited<ReturnType<typeof makeProject>> & { server: RunningServer; url: string };

async function serverFixture(t: { after: (fn: () => Promise<void>) => void }, options: Parameters<typeof listenForTest>[2] = {}): Promise<Fixture> {
  const project = await makeProject("server-sse-");
  const server = await listenForTest(project.store, project.root, options);
  t.after(async () => {
    await server.close();
    await project.store.close();
  });
  return { ...project, server, url: `http://127.0.0.1:${server.port}` };
}

const open = (fixture: Fixture, path: string, headers: Record<string, string> = {}) => SseReader.open(`${fixture.url}${path}`, { ...AUTH, ...headers });
const ids = (reader: SseReader) => reader.events().map((event) => event.__id);

/** Polls `condition`; the deadline only bounds how long a failure takes to show. */
async function waitUntil(what: string, condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("resuming a finished run from every id gives exactly the rest, then the stream ends; at the end, 204", async (t) => {
  const fixture = await serverFixture(t);
  const { number, last } = await finishedRun(fixture.store, 20);
  for (let after = 0; after <= last + 1; after += 1) {
    const reader = await open(fixture, `/api/runs/${number}/stream`, { "last-event-id": String(after) });
    await reader.ended;
    if (after >= last) {
      assert.equal(reader.status, 204, `after ${after}`);
      continue;
    }
    assert.equal(reader.status, 200);
    assert.match(String(reader.headers["content-type"]), /text\/event-stream/);
    assert.equal(reader.frames[0]?.retry, 2000, "retry comes first");
    assert.deepEqual(ids(reader), range(after + 1, last), `after ${after}`);
    assert.equal(reader.events().at(-1)?.["type"], "run.completed");
    assert.ok(reader.frames.every((f) => f.event === undefined), "default event name");
  }
});

test("Last-Event-ID wins over ?after; an invalid cursor is 400; an unknown run 404", async (t) => {
  const fixture = await serverFixture(t);
  const { number, last } = await finishedRun(fixture.store, 6);
  const byQuery = await open(fixture, `/api/runs/${number}/stream?after=5`);
  await byQuery.ended;
  assert.deepEqual(ids(byQuery), range(6, last));
  const both = await open(fixture, `/api/runs/${number}/stream?after=1`, { "last-event-id": "7" });
  await both.ended;
  assert.deepEqual(ids(both), range(8, last));
  for (const bad of ["abc", "-1", "1.5", "1e3", "99999999999999999999"]) {
    const reader = await open(fixture, `/api/runs/${number}/stream`, { "last-event-id": bad });
    assert.equal(reader.status, 400, bad);
    reader.close();
  }
  const badQuery = await open(fixture, `/api/runs/${number}/stream?after=x`);
  assert.equal(badQuery.status, 400);
  badQuery.close();
  const unknown = await open(fixture, "/api/runs/42/stream");
  assert.equal(unknown.status, 404);
  unknown.close();
  const feed = await open(fixture, "/api/stream", { "last-event-id": "x" });
  assert.equal(feed.status, 400);
  feed.close();
});

test("live: events of a run being written arrive in order and the stream ends after the final one", async (t) => {
  const fixture = await serverFixture(t);
  const writer = await beginRun(fixture.store);
  const readers = await Promise.all([0, 1, 2].map((after) => open(fixture, `/api/runs/${writer.number}/stream?after=${after}`)));
  await appendLogs(writer, 50);
  writer.append("run.completed", COMPLETED);
  await writer.close();
  for (const [after, reader] of readers.entries()) {
    await reader.ended;
    assert.deepEqual(ids(reader), range(after + 1, 53), `after ${after}`);
  }
});

test("a quiet stream gets `: ping` heartbeats", async (t) => {
  const fixture = await serverFixture(t, { stream: { heartbeatMs: 40 } });
  const writer = await beginRun(fixture.store);
  t.after(() => writer.close());
  const reader = await open(fixture, `/api/runs/${writer.number}/stream`);
  await reader.waitFor("two pings", (frames) => frames.filter((f) => f.comment === "ping").length >= 2);
  assert.deepEqual(ids(reader), [1, 2]);
  reader.close();
});

test("ephemeral events of a run written in this process come without id, in order with the durable ones", async (t) => {
  const writers = new Map<string, RunStoreWriter>();
  const fixture = await serverFixture(t, { liveWriters: (runId) => writers.get(runId) });
  const writer = await beginRun(fixture.store);
  writers.set(writer.runId, writer);
  const reader = await open(fixture, `/api/runs/${writer.number}/stream`);
  await reader.waitFor("the run's first events", () => ids(reader).length === 2);
  const delta = (text: string) => writer.publish("agent.delta", { session: "ses_1", kind: "text", text });
  delta("Hel");
  delta("lo");
  writer.append("agent.message", { session: "ses_1", turn: 1, text: "Hello" });
  delta("next");
  writer.append("run.completed", COMPLETED);
  await writer.close();
  await reader.ended;
  const sequence = reader.frames.filter((f) => f.data !== undefined).map((f) => {
    const event = JSON.parse(f.data as string) as { type: string; seq?: number; data: { text?: string } };
    return `${f.id ?? "-"}:${event.type}${event.data.text === undefined ? "" : `:${event.data.text}`}`;
  });
  assert.deepEqual(sequence, ["1:run.created", "2:run.started", "-:agent.delta:Hel", "-:agent.delta:lo", "3:agent.message:Hello", "-:agent.delta:next", "4:run.completed"]);
  assert.ok(reader.frames.filter((f) => f.data?.includes("agent.delta")).every((f) => f.id === undefined && !/"seq"/.test(f.data as string)));
});

test("all clients of a run share one follower", async (t) => {
  const started: string[] = [];
  const fixture = await serverFixture(t, { hooks: { followerStarted: (key) => started.push(key) } });
  const writer = await beginRun(fixture.store);
  const readers = await Promise.all(range(1, 8).map(() => open(fixture, `/api/runs/${writer.number}/stream`)));
  await Promise.all(readers.map((reader) => reader.waitFor("the first events", () => ids(reader).length === 2)));
  await appendLogs(writer, 30);
  const late = await open(fixture, `/api/runs/${writer.number}/stream?after=10`);
  writer.append("run.completed", COMPLETED);
  await writer.close();
  for (const reader of [...readers, late]) await reader.ended;
  for (const reader of readers) assert.deepEqual(ids(reader), range(1, 33));
  assert.deepEqual(ids(late), range(11, 33));
  assert.deepEqual(started, [writer.runId], "one follower for nine clients");
});

test("a client that stops reading gets `resync` and is dropped; a fast one keeps receiving; resuming gets the rest", async (t) => {
  const dropped: Array<{ key: string; after: number }> = [];
  const fixture = await serverFixture(t, {
    stream: { ringEvents: 64, ringBytes: 256 * 1024, dropGraceMs: 60_000 },
    hooks: { clientDropped: (key, after) => dropped.push({ key, after }) },
  });
  const writer = await beginRun(fixture.store);
  const slow = await open(fixture, `/api/runs/${writer.number}/stream`);
  const fast = await open(fixture, `/api/runs/${writer.number}/stream`);
  await slow.waitFor("the first events", () => ids(slow).length === 2);
  await fast.waitFor("the first events", () => ids(fast).length === 2);
  slow.pause();
  // Large events: the socket buffers (several MiB on loopback) fill, and the slow client's writes stop draining.
  const padding = "x".repeat(8000);
  let appended = 0;
  while (dropped.length === 0 && appended < 20_000) {
    for (let index = 0; index < 100; index += 1) writer.append("log", { level: "info", message: `${appended + index} ${padding}` });
    appended += 100;
    await writer.flush();
  }
  assert.equal(dropped.length, 1, "the slow client was dropped");
  writer.append("run.completed", COMPLETED);
  await writer.close();
  const last = appended + 3;
  await fast.ended;
  assert.deepEqual(ids(fast), range(1, last), "the fast client got everything");
  assert.equal(fast.frames.filter((f) => f.event === "resync").length, 0);

  slow.resume();
  await slow.ended;
  const resync = slow.frames.at(-1);
  assert.equal(resync?.event, "resync");
  const after = (JSON.parse(resync?.data as string) as { after: number }).after;
  assert.equal(after, dropped[0]?.after);
  assert.deepEqual(ids(slow), range(1, after), "no gap before the resync");
  assert.ok(after < last);
  const resumed = await open(fixture, `/api/runs/${writer.number}/stream`, { "last-event-id": String(after) });
  await resumed.ended;
  assert.deepEqual(ids(resumed), range(after + 1, last), "resuming gets the rest");
});

test("the feed streams every run's events by pos, resumes by Last-Event-ID, and does not end", async (t) => {
  const fixture = await serverFixture(t);
  await finishedRun(fixture.store, 3);
  const writer = await beginRun(fixture.store);
  const reader = await open(fixture, "/api/stream");
  await reader.waitFor("both runs so far", () => ids(reader).length === 8);
  await appendLogs(writer, 4);
  writer.append("run.completed", COMPLETED);
  await writer.close();
  await reader.waitFor("the second run's end", () => ids(reader).length === 13);
  assert.deepEqual(ids(reader), range(1, 13));
  const numbers = reader.events<{ number: number; pos: number }>().map((e) => e.number);
  assert.deepEqual(numbers, [1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2]);
  reader.close();
  const resumed = await open(fixture, "/api/stream", { "last-event-id": "9" });
  await resumed.waitFor("the rest", () => ids(resumed).length === 4);
  assert.deepEqual(ids(resumed), range(10, 13));
  resumed.close();
});

test("clients that go away mid-stream leave no hub or follower behind", async (t) => {
  const fixture = await serverFixture(t);
  const writer = await beginRun(fixture.store);
  t.after(() => writer.close());
  const readers = await Promise.all(range(1, 3).map(() => open(fixture, `/api/runs/${writer.number}/stream`)));
  const feed = await open(fixture, "/api/stream");
  await Promise.all(readers.map((reader) => reader.waitFor("the first events", () => ids(reader).length === 2)));
  await feed.waitFor("the first events", () => ids(feed).length === 2);
  assert.equal(fixture.server.hubs.size, 2, "one hub for the run, one for the feed");
  for (const reader of [...readers, feed]) reader.close();
  await waitUntil("every hub to be gone", () => fixture.server.hubs.size === 0);
});

test("a dropped client that never reads again is disconnected after the grace period", async (t) => {
  const dropped: number[] = [];
  let cutOff = 0;
  const hooks = { clientDropped: (_key: string, after: number) => dropped.push(after), clientCutOff: () => (cutOff += 1) };
  const fixture = await serverFixture(t, { stream: { ringEvents: 32, ringBytes: 128 * 1024, dropGraceMs: 200 }, hooks });
  const writer = await beginRun(fixture.store);
  t.after(() => writer.close());
  const stuck = await open(fixture, `/api/runs/${writer.number}/stream`);
  await stuck.waitFor("the first events", () => ids(stuck).length === 2);
  stuck.pause();
  const padding = "y".repeat(8000);
  for (let round = 0; dropped.length === 0 && round < 200; round += 1) {
    for (let index = 0; index < 100; index += 1) writer.append("log", { level: "info", message: padding });
    await writer.flush();
  }
  assert.equal(dropped.length, 1);
  assert.equal(fixture.server.hubs.size, 0, "its hub is gone with it");
  // A paused socket does not notice its end; wait for the server to cut it off, then read on.
  // The server destroyed the connection with `resync` still in its own buffers: the client
  // gets what the kernel held, a gap-free prefix, then the end, and never the `resync`.
  await waitUntil("the server to cut the stuck client off", () => cutOff === 1);
  stuck.resume();
  await stuck.ended;
  assert.equal(stuck.frames.filter((f) => f.event === "resync").length, 0, "no resync: the connection was cut");
  assert.deepEqual(ids(stuck), range(1, ids(stuck).length));
});
