import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { test, type TestContext } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import { testTempDir } from "@baton/protocol/testing";
import { readerSocketPath } from "./live-endpoint.ts";
import { openStore } from "../open-store.ts";
import { liveReaderCount } from "./testing/live-readers.ts";
import { makeBatonDir, spawnFixture, type Child } from "../test-fixtures/temp-store.ts";

const WAIT_MS = 30_000;

async function waitFor(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

async function command(child: Child, line: string): Promise<string> {
  child.process.stdin?.write(`${line}\n`);
  return child.line();
}

async function liveWriterChild(t: TestContext, batonDir: string): Promise<{ child: Child; runId: string }> {
  const child = spawnFixture(t, "live-writer.ts", [batonDir]);
  const runId = (await child.line()).split(" ")[1] as string;
  return { child, runId };
}

const textOf = (event: Envelope) => String(event.data["text"] ?? event.data["message"] ?? "");

test("a reader in another process gets the run's deltas live, in order with the durable events (after_seq); no socket after close", async (t) => {
  const batonDir = await makeBatonDir(t);
  const { child, runId } = await liveWriterChild(t, batonDir);
  await using store = await openStore(batonDir);
  const abort = new AbortController();
  t.after(() => abort.abort());
  const socket = path.join(store.runDir(runId), "live.sock");
  assert.ok(existsSync(socket), "the writer listens in the run's directory");

  // What a view shows: durable events as read from the log, each delta once the log has
  // reached the seq it followed (held until then, dropped if the log is already past it).
  const shown: string[] = [];
  const held: Array<{ event: Envelope; afterSeq: number }> = [];
  const received: Array<{ text: string; afterSeq: number }> = [];
  let frontier = 0;
  store.tapLive(
    runId,
    (event, afterSeq) => {
      received.push({ text: textOf(event), afterSeq });
      if (afterSeq === frontier) shown.push(`delta ${textOf(event)}`);
      else if (afterSeq > frontier) held.push({ event, afterSeq });
    },
    { signal: abort.signal },
  );
  assert.equal(await command(child, "readers 1"), "readers 1");
  assert.equal(liveReaderCount(store.runDir(runId)), 1, "seen from this process as the writer counts it");
  const following = (async () => {
    for await (const event of store.followRun(runId, { signal: abort.signal })) {
      frontier = event.seq ?? frontier;
      shown.push(`${event.seq} ${event.type === "log" ? textOf(event) : event.type}`);
      while (held[0] !== undefined && held[0].afterSeq <= frontier) shown.push(`delta ${textOf(held.shift()!.event)}`);
    }
  })();
  for (let index = 1; index <= 4; index += 1) {
    assert.equal(await command(child, "step"), `stepped ${index + 2}`);
    // The next log event only once this delta is in: over the socket it could come after it.
    await waitFor(`delta d${index}`, () => received.length === index);
  }
  assert.equal(await command(child, "close"), "closed");
  await following;
  assert.equal(await child.exited, 0);

  assert.deepEqual(received, [1, 2, 3, 4].map((index) => ({ text: `d${index}`, afterSeq: index + 2 })), "each delta names the seq of the log event appended before it");
  assert.deepEqual(shown, ["1 run.created", "2 run.started", "3 m1", "delta d1", "4 m2", "delta d2", "5 m3", "delta d3", "6 m4", "delta d4", "7 run.completed"]);
  assert.ok(!existsSync(socket), "the socket is removed when the writer closes");
});

test("followRun with ephemeral: a run written by another process comes with its deltas in place, ending after the final event", async (t) => {
  const batonDir = await makeBatonDir(t);
  const { child, runId } = await liveWriterChild(t, batonDir);
  await using store = await openStore(batonDir);
  const seen: string[] = [];
  const following = (async () => {
    for await (const event of store.followRun(runId, { ephemeral: true })) seen.push(event.seq === undefined ? `delta ${textOf(event)}` : `${event.seq} ${event.type === "log" ? textOf(event) : event.type}`);
  })();
  assert.equal(await command(child, "readers 1"), "readers 1");
  for (let index = 1; index <= 2; index += 1) {
    assert.equal(await command(child, "step"), `stepped ${index + 2}`);
    await waitFor(`delta d${index}`, () => seen.includes(`delta d${index}`));
  }
  assert.equal(await command(child, "close"), "closed");
  await following;
  assert.deepEqual(seen, ["1 run.created", "2 run.started", "3 m1", "delta d1", "4 m2", "delta d2", "5 run.completed"]);
});

test("a reader that stops reading is dropped by the writer, which goes on; other readers keep up", async (t) => {
  const batonDir = await makeBatonDir(t);
  const { child, runId } = await liveWriterChild(t, batonDir);
  await using store = await openStore(batonDir);
  const abort = new AbortController();
  t.after(() => abort.abort());
  const stuck = net.connect(readerSocketPath(store.runDir(runId)) as string);
  stuck.pause(); // never reads: the kernel's buffer fills, then the writer's
  let stuckClosed = false;
  stuck.on("close", () => (stuckClosed = true));
  stuck.on("error", () => {});
  let fastCount = 0;
  store.tapLive(runId, () => (fastCount += 1), { signal: abort.signal });
  assert.equal(await command(child, "readers 2"), "readers 2");

  // Floods of 256 deltas of 1 KiB, each once the reading reader has all before it: the writer
  // never holds more than a flood for it, far below LIVE_READER_BUFFER_BYTES (1 MiB), however
  // slowly this process reads, while the stuck reader's backlog grows by a flood each time.
  const flood = 256;
  let deltas = 0;
  let readersLeft = "2";
  while (readersLeft === "2" && deltas < 64 * flood) {
    [, readersLeft = ""] = (await command(child, `flood ${flood}`)).split(" ");
    deltas += flood;
    await waitFor(`the reading one to get all ${deltas} deltas`, () => fastCount === deltas);
  }
  // Each flood and the durable append after it completed: the stuck reader held nothing up.
  assert.equal(readersLeft, "1", "the stuck reader was dropped, the reading one kept");
  // Reading again, it finds what the kernel had buffered for it, then the end: it was cut off.
  stuck.resume();
  await waitFor("the stuck reader to see its connection closed by the writer", () => stuckClosed);
  assert.ok(stuck.bytesRead < (deltas * 1024) / 2, `the stuck reader got ${stuck.bytesRead} bytes`);
  assert.equal(await command(child, "close"), "closed");
});

test("a killed writer's stale socket breaks neither a new reader nor the next writer; recovery removes it", async (t) => {
  const batonDir = await makeBatonDir(t);
  await using store = await openStore(batonDir);
  const abort = new AbortController();
  t.after(() => abort.abort());

  const first = await liveWriterChild(t, batonDir);
  first.child.process.stdin?.write("crash\n");
  await first.child.exited;
  const socket = path.join(store.runDir(first.runId), "live.sock");
  assert.ok(existsSync(socket), "a SIGKILLed writer leaves its socket behind");

  // A new reader: connection refused, no error, and it keeps trying while the run is live.
  const received: string[] = [];
  store.tapLive(first.runId, (event) => received.push(textOf(event)), { signal: abort.signal, retryMs: 20 });
  await sleep(100);
  // The next writer (a resume) takes the stale lock over and replaces the socket.
  const writer = await store.openWriter(first.runId);
  await waitFor("the reader to connect to the new writer", () => writer.liveReaderCount === 1);
  writer.publish("agent.delta", { session: "ses_1", kind: "text", text: "after the takeover" });
  await waitFor("the delta", () => received.length === 1);
  assert.deepEqual(received, ["after the takeover"]);
  writer.append("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 });
  await writer.close();
  assert.ok(!existsSync(socket));

  const second = await liveWriterChild(t, batonDir);
  second.child.process.stdin?.write("crash\n");
  await second.child.exited;
  assert.ok(existsSync(path.join(store.runDir(second.runId), "live.sock")));
  assert.ok(await store.recoverIfAbandoned(second.runId));
  assert.ok(!existsSync(path.join(store.runDir(second.runId), "live.sock")), "recovery removes the dead writer's socket");
});

test("a run directory too deep for a unix socket path gets its socket in a private tmp dir, named in live.sock.path", async (t) => {
  const root = await testTempDir("baton-live-deep-");
  const batonDir = path.join(root, "a-directory-name-long-enough-to-push-the-socket-past-sun-path", ".baton");
  await mkdir(batonDir, { recursive: true });
  await using store = await openStore(batonDir);
  const writer = await store.createRun();
  const pointer = path.join(writer.dir, "live.sock.path");
  const socket = readerSocketPath(writer.dir) as string;
  assert.ok(existsSync(pointer));
  assert.ok(socket.startsWith(os.tmpdir()), socket);
  assert.ok(Buffer.byteLength(socket) <= 103);
  const abort = new AbortController();
  t.after(() => abort.abort());
  const received: string[] = [];
  store.tapLive(writer.runId, (event) => received.push(textOf(event)), { signal: abort.signal });
  await waitFor("the reader to connect", () => writer.liveReaderCount === 1);
  assert.equal(liveReaderCount(writer.dir), 1, "found through live.sock.path");
  writer.publish("agent.delta", { session: "ses_1", kind: "text", text: "deep" });
  await waitFor("the delta", () => received.length === 1);
  await writer.close();
  assert.ok(!existsSync(pointer) && !existsSync(socket), "both are removed at close");
});

test("liveEvents: false opens no socket; deltas stay in the process", async (t) => {
  const batonDir = await makeBatonDir(t);
  await using quiet = await openStore(batonDir, { liveEvents: false });
  const writer = await quiet.createRun();
  assert.ok(!existsSync(path.join(writer.dir, "live.sock")));
  writer.publish("agent.delta", { session: "ses_1", kind: "text", text: "only in process" });
  await writer.close();
});
