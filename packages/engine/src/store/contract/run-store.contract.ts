// The store contract suite: every store runs it (file/file-store.contract.int.test.ts,
// pg/pg-store.contract.int.test.ts). A behaviour that differs between stores is a bug.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { test, type TestContext } from "node:test";
import { fileURLToPath } from "node:url";
import type { Envelope, FeedEnvelope } from "@baton/protocol/core";
import { isBatonError } from "../../errors.ts";
import type { RunStore } from "./run-store.ts";
import type { StoreFactory, StoreUnderTest } from "./testing/stores-under-test.ts";

const repo = { root: "/", dirty: false };
const started = { attempt: 1, resumed: false, pid: 4242, host: "h" };
const completed = { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 1 };
const log = (message: string) => ({ level: "info", message });

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/**
 * The feed's first `count` events, followed. A store may place committed events in the feed
 * a little later (PostgreSQL's feed waits while any older transaction on the server is open,
 * another test's too), so a test waits for them; bounded, so that a lost event fails.
 */
async function feedUntil(store: Pick<RunStore, "followFeed">, count: number, timeoutMs = 30_000): Promise<FeedEnvelope[]> {
  const events: FeedEnvelope[] = [];
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), timeoutMs);
  try {
    for await (const event of store.followFeed({ signal: stop.signal })) {
      events.push(event);
      if (events.length === count) break;
    }
  } finally {
    clearTimeout(timer);
  }
  assert.equal(events.length, count, `the feed gave ${events.length} of ${count} events within ${timeoutMs} ms`);
  return events;
}

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);

/** Defines the contract's tests for one store. */
export function contractSuite(name: string, factory: StoreFactory): void {
  const each = (title: string, body: (t: TestContext, subject: StoreUnderTest) => Promise<void>): void => {
    void test(`${name}: ${title}`, async (t) => {
      const subject = await factory(t);
      if (subject !== undefined) await body(t, subject);
    });
  };

  each("append gives seqs at once, commits in groups, durable before delivered; read from any cursor", async (_t, subject) => {
    await using store = await subject.open();
    const writer = await store.createRun({ task: "t", agent: "fake", repo });
    const delivered: number[] = [];
    let durableWhenDelivered = true;
    writer.subscribe((event) => {
      delivered.push(event.seq ?? 0);
      if ((event.seq ?? 0) > writer.committedSeq) durableWhenDelivered = false;
    });
    writer.append("run.started", started);
    const appended = range(1, 500).map((n) => writer.append("log", log(`m${n}`)));
    assert.deepEqual([appended[0]?.seq, appended.at(-1)?.seq, writer.lastSeq], [3, 502, 502], "seqs are given at append");
    assert.equal(JSON.stringify(appended[0]), JSON.stringify({ v: 1, run: writer.runId, seq: 3, at: appended[0]?.at, type: "log", data: log("m1") }), "an appended envelope serializes as the plain envelope");
    await appended.at(-1)?.durable;
    assert.equal(writer.committedSeq, 502);
    // run.created (seq 1) may have been delivered before the subscription.
    assert.deepEqual(delivered.filter((seq) => seq >= 2), range(2, 502), "subscribers get every event once, in order");
    assert.ok(durableWhenDelivered, "no event reaches a subscriber before it is durable");
    writer.append("run.completed", completed);
    await writer.close();
    for (const after of [0, 1, 250, 502, 503]) {
      const events = await collect(store.readRun(writer.runId, { after }));
      assert.deepEqual(events.map((event) => event.seq), range(after + 1, 503), `from ${after}`);
    }
    const [first] = await collect(store.readRun(writer.runId));
    assert.equal(first?.type, "run.created");
    assert.equal(first?.data["number"], writer.number, "run.created carries the run's number");
    const own = await collect(writer.readLog());
    assert.deepEqual(own.map((event) => event.seq), range(1, 503), "the closed writer reads its whole log back (its transcript's source)");
    assert.equal(own.at(-1)?.type, "run.completed");
  });

  each("follow from any cursor: every event once, in order, live from another store, ending after the final event", async (_t, subject) => {
    await using store = await subject.open();
    await using other = await subject.open();
    const writer = await store.createRun({ task: "t", agent: "fake", repo });
    writer.append("run.started", started);
    for (const n of range(1, 20)) writer.append("log", log(`m${n}`));
    await writer.flush();
    const followers = [0, 5, 22].map((after) => collect(other.followRun(writer.runId, { after })));
    for (const n of range(21, 60)) {
      writer.append("log", log(`m${n}`));
      if (n % 10 === 0) await writer.flush();
    }
    writer.append("run.completed", completed);
    await writer.close();
    const [all, from5, from22] = await Promise.all(followers);
    assert.deepEqual(all?.map((event) => event.seq), range(1, 63));
    assert.deepEqual(from5?.map((event) => event.seq), range(6, 63));
    assert.deepEqual(from22?.map((event) => event.seq), range(23, 63));
    const stopped = new AbortController();
    const live = await store.createRun({ task: "live", agent: "fake", repo });
    const following = collect(other.followRun(live.runId, { signal: stopped.signal }));
    await live.append("run.started", started).durable;
    stopped.abort();
    assert.ok((await following).length <= 2, "an aborted follow returns");
    await live.close();
  });

  each("the run catalog: list, get, status filter, resolve by number, id and prefix", async (_t, subject) => {
    await using store = await subject.open();
    const first = await store.createRun({ task: "one", agent: "fake", model: "m1", repo });
    first.append("run.started", started);
    first.append("run.completed", completed);
    await first.close();
    const second = await store.createRun({ task: "two", agent: "other", repo });
    await second.append("run.started", started).durable;
    assert.deepEqual([first.number, second.number], [1, 2]);
    const one = await store.getRun(first.runId);
    assert.deepEqual(
      { id: one?.id, number: one?.number, status: one?.status, task: one?.task, agent: one?.agent, model: one?.model, last_seq: one?.last_seq, pid: one?.pid },
      { id: first.runId, number: 1, status: "succeeded", task: "one", agent: "fake", model: "m1", last_seq: 3, pid: 4242 },
    );
    assert.ok(one?.created_at !== undefined && one.started_at !== undefined && one.ended_at !== undefined);
    assert.equal(await store.getRun("run_01JD7Q2W3E4R5T6Y7V8W9X0AAA"), undefined);
    const runs = await store.listRuns();
    assert.deepEqual(runs.map((run) => [run.number, run.status]), [[1, "succeeded"], [2, "running"]]);
    assert.deepEqual((await store.listRuns({ status: "running" })).map((run) => run.number), [2]);
    assert.equal((await store.resolveRun("2")).id, second.runId);
    assert.equal((await store.resolveRun(first.runId)).number, 1);
    assert.equal((await store.resolveRun(first.runId.slice(4).toLowerCase())).number, 1, "an id without run_, in any case");
    await assert.rejects(store.resolveRun("9"), (error) => isBatonError(error) && error.code === "run_not_found");
    await second.close();
  });

  each("the cross-run feed: commit order, every event once, from any position; followFeed gives what comes next", async (_t, subject) => {
    await using store = await subject.open();
    await using other = await subject.open();
    assert.equal(await store.feedPosition(), 0);
    const a = await store.createRun({ task: "a", agent: "fake", repo });
    const b = await store.createRun({ task: "b", agent: "fake", repo });
    for (const n of range(1, 30)) {
      a.append("log", log(`a${n}`));
      b.append("log", log(`b${n}`));
      if (n % 7 === 0) await Promise.all([a.flush(), b.flush()]);
    }
    await Promise.all([a.flush(), b.flush()]);
    const total = 62;
    const feed = await feedUntil(other, total);
    assert.equal(feed.length, total);
    assert.deepEqual(await collect(other.readFeed()), feed, "reading the feed gives what following it gave");
    for (let index = 1; index < feed.length; index += 1) assert.ok((feed[index] as FeedEnvelope).pos > (feed[index - 1] as FeedEnvelope).pos, "positions grow");
    for (const writer of [a, b]) {
      const seqs = feed.filter((event) => event.run === writer.runId).map((event) => event.seq);
      assert.deepEqual(seqs, range(1, 31), "each run's events once, in seq order");
      assert.ok(feed.filter((event) => event.run === writer.runId).every((event) => event.number === writer.number));
    }
    for (const from of [0, ...feed.map((event) => event.pos)]) {
      assert.deepEqual((await collect(other.readFeed({ after: from }))).map((event) => event.pos), feed.filter((event) => event.pos > from).map((event) => event.pos));
    }
    const position = await other.feedPosition();
    assert.equal(position, feed.at(-1)?.pos);
    const stop = new AbortController();
    const next: FeedEnvelope[] = [];
    const following = (async () => {
      for await (const event of other.followFeed({ after: position, signal: stop.signal })) {
        next.push(event);
        if (next.length === 3) stop.abort();
      }
    })();
    a.append("run.completed", completed);
    b.append("log", log("b31"));
    b.append("run.completed", completed);
    await Promise.all([a.close(), b.close()]);
    await following;
    assert.deepEqual(next.map((event) => `${event.run === a.runId ? "a" : "b"}${event.seq}`).sort(), ["a32", "b32", "b33"]);
  });

  each("one writer per run: run_locked while held, run_ended after the final event, a failed run resumed with resumeFailed", async (_t, subject) => {
    await using store = await subject.open();
    await using other = await subject.open();
    const writer = await store.createRun({ task: "t", agent: "fake", repo });
    await writer.append("run.started", started).durable;
    await assert.rejects(other.openWriter(writer.runId), (error) => isBatonError(error) && error.code === "run_locked");
    await writer.close();
    const resumed = await other.openWriter(writer.runId);
    assert.equal(resumed.lastSeq, 2, "the next writer continues the run's seq");
    resumed.append("run.failed", { error: { code: "x", message: "failed" } });
    await resumed.close();
    await assert.rejects(store.openWriter(writer.runId), (error) => isBatonError(error) && error.code === "run_ended");
    const again = await store.openWriter(writer.runId, { resumeFailed: true });
    assert.equal(again.append("run.started", { ...started, attempt: 2, resumed: true }).seq, 4);
    again.append("run.completed", completed);
    assert.throws(() => again.append("log", log("after the end")), (error) => isBatonError(error) && error.code === "run_ended");
    await again.close();
    assert.equal((await store.getRun(writer.runId))?.status, "succeeded");
    await assert.rejects(store.openWriter("run_01JD7Q2W3E4R5T6Y7V8W9X0AAA"), (error) => isBatonError(error) && error.code === "run_not_found");
  });

  each("recovery of a writer that went away: open starts closed, then run.failed interrupted, once", async (_t, subject) => {
    await using store = await subject.open();
    const writer = await store.createRun({ task: "t", agent: "fake", repo });
    const session = "ses_1";
    writer.append("run.started", started);
    writer.append("agent.started", { session, agent: "fake", protocol_version: 1 });
    writer.append("tool.started", { session, call: "c_1", tool: "run", kind: "execute" });
    await writer.close();
    const recovered = await store.recoverIfAbandoned(writer.runId);
    assert.equal(recovered?.event.type, "run.failed");
    assert.equal(recovered?.pid, 4242);
    const ends = await collect(store.readRun(writer.runId, { after: 4 }));
    assert.deepEqual(ends.map((event) => event.type), ["tool.completed", "agent.finished", "run.failed"]);
    assert.equal(ends.at(-1)?.data["error"] !== undefined && (ends.at(-1)?.data["error"] as { code: string }).code, "interrupted");
    assert.equal((await store.getRun(writer.runId))?.status, "failed");
    assert.equal(await store.recoverIfAbandoned(writer.runId), undefined, "recovery runs once");
    const paused = await store.createRun({ task: "p", agent: "fake", repo });
    paused.append("run.started", started);
    paused.append("run.paused", { reason: "gate" });
    await paused.close();
    assert.equal(await store.recoverIfAbandoned(paused.runId), undefined, "a paused run is not abandoned");
    const alive = await store.createRun({ task: "a", agent: "fake", repo });
    await alive.append("run.started", started).durable;
    assert.equal(await store.recoverIfAbandoned(alive.runId), undefined, "a run with a live writer is not abandoned");
    await alive.close();
  });

  each("recovery of a writer killed in another process; its follower ends", async (t, subject) => {
    await using store = await subject.open();
    const child = spawn(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), "testing", "dead-writer.ts"), subject.batonDir, subject.url, String(subject.leaseMs)], { stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    t.after(() => child.kill("SIGKILL"));
    const line = await createInterface({ input: child.stdout })[Symbol.asyncIterator]().next();
    const runId = String(line.value).split(" ")[1] as string;
    const following = collect(store.followRun(runId));
    child.kill("SIGKILL");
    await exited;
    const events = await following;
    assert.deepEqual(events.map((event: Envelope) => event.type), ["run.created", "run.started", "agent.started", "tool.started", "tool.completed", "agent.finished", "run.failed"]);
    assert.equal((await store.getRun(runId))?.status, "failed");
  });

  each("the live channel: ephemeral events reach a follower in another store, after the durable event they followed", async (_t, subject) => {
    await using store = await subject.open();
    await using other = await subject.open();
    const writer = await store.createRun({ task: "t", agent: "fake", repo });
    await writer.append("run.started", started).durable;
    const session = "ses_1";
    const seen: string[] = [];
    const stop = new AbortController();
    const following = (async () => {
      for await (const event of other.followRun(writer.runId, { ephemeral: true, signal: stop.signal })) {
        seen.push(event.seq === undefined ? `~${String(event.data["text"])}` : String(event.seq));
        if (event.type === "run.completed") return;
      }
    })();
    // Deltas are best-effort: published before the reader listens they are gone. Publish until one arrives.
    for (let n = 0; !seen.some((entry) => entry.startsWith("~")) && n < 200; n += 1) {
      writer.publish("agent.delta", { session, text: `d${n}` });
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.ok(seen.some((entry) => entry.startsWith("~")), "a delta reached the other store's follower");
    const deltasBefore = seen.length;
    writer.append("log", log("after the deltas"));
    writer.publish("agent.delta", { session, text: "last" });
    writer.append("run.completed", completed);
    await writer.close();
    await following;
    stop.abort();
    const rest = seen.slice(deltasBefore);
    assert.deepEqual(rest.filter((entry) => !entry.startsWith("~")), ["3", "4"]);
    if (rest.includes("~last")) assert.deepEqual(rest, ["3", "~last", "4"], "a delta comes after the durable event it followed");
    const durable = await collect(store.readRun(writer.runId));
    assert.ok(durable.every((event) => event.type !== "agent.delta"), "ephemeral events are never stored");
  });
}
