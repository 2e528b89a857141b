import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import type { SseSink } from "./sse-sink.ts";
import { StreamClient } from "./stream-client.ts";
import { StreamHub } from "./stream-hub.ts";
import type { StreamSource } from "./stream-source.ts";

const event = (seq: number) => ({ type: "log", seq, data: { message: `event ${seq}` } }) as unknown as Envelope;

/** A run whose log holds `log` (what a client's catch-up reads) and whose follower yields what the test pushes. */
function liveSource(log: Envelope[] = []): { source: StreamSource; push: (...seqs: number[]) => void } {
  const queue: Envelope[] = [];
  let wake: (() => void) | undefined;
  const source: StreamSource = {
    read: async function* (after) {
      for (const entry of log) if ((entry.seq ?? 0) > after) yield await Promise.resolve(entry);
    },
    follow: async function* (_after, signal) {
      while (!signal.aborted) {
        const event = queue.shift();
        if (event !== undefined) yield event;
        else await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    cursorOf: (event) => event.seq,
    isFinal: (event) => event.type === "run.completed",
  };
  const push = (...seqs: number[]) => {
    for (const seq of seqs) queue.push(event(seq));
    wake?.();
  };
  return { source, push };
}

/** A connection that takes writes until the test makes it push back, then waits for the test's drain. */
class FakeSink implements SseSink {
  readonly writes: string[] = [];
  full = false;
  ended = false;
  closed = false;
  #drain: (() => void) | undefined;
  write(bytes: Uint8Array): boolean {
    this.writes.push(Buffer.from(bytes).toString());
    return !this.full;
  }
  onDrain(listener: () => void): void {
    this.#drain = listener;
  }
  drain(): void {
    this.full = false;
    const listener = this.#drain;
    this.#drain = undefined;
    listener?.();
  }
  end(): void {
    this.ended = true;
  }
  onClose(): void {}
  destroy(): void {}
  /** The ids of every event frame written so far. */
  ids(): number[] {
    return [...this.writes.join("").matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
  }
}

/** Lets the hub's follower and its wake-up (setImmediate) run until `condition` holds. */
async function settle(what: string, condition: () => boolean): Promise<void> {
  for (let turn = 0; !condition(); turn += 1) {
    if (turn > 1000) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Nothing to wait for (nothing must happen): the hub's wake-ups get their turns. */
async function turnsOfTheLoop(count: number): Promise<void> {
  for (let turn = 0; turn < count; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

function startClient(source: StreamSource, hub: StreamHub, after: number) {
  const sink = new FakeSink();
  const drops: number[] = [];
  const client = new StreamClient({ sink, source, hub: () => hub, after, heartbeatMs: 60_000, dropGraceMs: 60_000, onDrop: (at) => drops.push(at), onCutOff: () => {} });
  client.start();
  return { sink, drops };
}

type Cleanup = { after: (fn: () => void) => void };

/** A hub over `source`, closed after the test whatever happens (its clients' heartbeats stop with it). */
function hubFor(t: Cleanup, source: StreamSource, limits = { ringEvents: 100, ringBytes: 1 << 20 }): StreamHub {
  const hub = new StreamHub(source, limits, { onIdle: () => {}, onFollowerStart: () => {} });
  t.after(() => hub.close());
  return hub;
}

function connect(t: Cleanup, limits?: { ringEvents: number; ringBytes: number }) {
  const { source, push } = liveSource();
  const hub = hubFor(t, source, limits);
  return { hub, push, ...startClient(source, hub, 0) };
}

test("a live client writes a batch of events as one view, and nothing more once its connection pushes back, until drain", async (t) => {
  const { hub, sink, push } = connect(t);
  await settle("the client joins the hub", () => hub.memberCount === 1);
  assert.deepEqual(sink.writes, ["retry: 2000\n\n"]);
  push(1, 2, 3);
  await settle("the first batch is written", () => sink.ids().length === 3);
  assert.equal(sink.writes.length, 2, "three events, one write");
  sink.full = true;
  push(4, 5);
  await settle("the second batch is written", () => sink.ids().length === 5);
  const writesWhenFull = sink.writes.length;
  push(6, 7);
  await settle("the hub has the third batch", () => hub.ring.nextIndex === 7);
  await turnsOfTheLoop(20);
  assert.equal(sink.writes.length, writesWhenFull, "nothing written while the connection is full");
  sink.drain();
  assert.deepEqual(sink.ids(), [1, 2, 3, 4, 5, 6, 7], "drain: the rest, in order, at once");
});

test("a client whose connection stays full while the ring turns over gets `resync` naming the last event it was handed, then the end", async (t) => {
  const { hub, sink, push, drops } = connect(t, { ringEvents: 4, ringBytes: 1 << 20 });
  await settle("the client joins the hub", () => hub.memberCount === 1);
  sink.full = true;
  push(1, 2);
  await settle("the first batch is written", () => sink.ids().length === 2);
  for (let seq = 3; seq <= 12; seq += 1) push(seq);
  await settle("the client is dropped", () => drops.length === 1);
  assert.deepEqual(drops, [2]);
  assert.equal(sink.writes.at(-1), 'event: resync\ndata: {"after":2}\n\n');
  assert.deepEqual(sink.ids(), [1, 2], "no gap before the resync");
  assert.equal(sink.ended, true);
  assert.equal(hub.closed, true, "its last client gone, the hub stops");
});

test("a client that read the log further than the hub's follower gets each later event once, not again from the ring", async (t) => {
  const log: Envelope[] = [];
  const { source, push } = liveSource(log);
  const hub = hubFor(t, source);
  const first = startClient(source, hub, 0);
  await settle("the first client joins the hub", () => hub.memberCount === 1);
  // Five events committed: the late client's own read finds them before the follower has read any.
  log.push(...[1, 2, 3, 4, 5].map(event));
  const late = startClient(source, hub, 2);
  await settle("the late client joins the hub", () => hub.memberCount === 2);
  assert.deepEqual(late.sink.ids(), [3, 4, 5], "caught up from the log");
  push(1, 2, 3, 4, 5, 6, 7);
  await settle("the first client has the follower's events", () => first.sink.ids().length === 7);
  await turnsOfTheLoop(5);
  assert.deepEqual(first.sink.ids(), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(late.sink.ids(), [3, 4, 5, 6, 7], "3, 4 and 5 once");
});
