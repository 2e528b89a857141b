import assert from "node:assert/strict";
import { test } from "node:test";
import { definedFields, type Envelope } from "@baton/protocol/core";
import { followStream, RETRY_FIRST_MS, type ConnectionState, type EventSourceLike, type Timers } from "./follow-stream.ts";

/** An EventSource the test drives by hand. */
class FakeSource implements EventSourceLike {
  readonly url: string;
  closed = false;
  readonly #listeners = new Map<string, Array<(event: { data?: unknown }) => void>>();

  constructor(url: string) {
    this.url = url;
  }

  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  close(): void {
    this.closed = true;
  }

  emit(type: string, data?: unknown): void {
    for (const listener of this.#listeners.get(type) ?? []) listener({ data: typeof data === "string" || data === undefined ? data : JSON.stringify(data) });
  }
}

/** Timers run by hand: `runAll` fires everything due, in order of delay. */
function manualTimers(): Timers & { delays: number[]; runAll(): void } {
  let pending: Array<{ id: number; ms: number; callback: () => void }> = [];
  let next = 0;
  return {
    delays: [],
    setTimeout(callback, ms) {
      this.delays.push(ms);
      pending.push({ id: ++next, ms, callback });
      return next;
    },
    clearTimeout(handle) {
      pending = pending.filter((p) => p.id !== handle);
    },
    runAll() {
      while (pending.length > 0) {
        const due = pending.sort((a, b) => a.ms - b.ms).shift()!;
        due.callback();
      }
    },
  };
}

const RUN = "run_01JD7Q2W3E4R5T6Y7V8X9Z0P1A";
const ev = (seq: number | undefined, type = "log"): Envelope => definedFields({ v: 1, run: RUN, seq, at: "2026-11-29T10:00:00.000Z", type, data: {} });

function harness(diagnose?: () => Promise<string | undefined>) {
  const sources: FakeSource[] = [];
  const delivered: Array<number | string> = [];
  const states: ConnectionState[] = [];
  let reconnects = 0;
  const timers = manualTimers();
  const follower = followStream({
    url: (after) => `/stream?after=${after}`,
    open: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    cursorOf: (event) => event.seq,
    isLast: (event) => event.type === "run.completed",
    onEvents: (events) => delivered.push(...events.map((e) => e.seq ?? e.type)),
    onState: (state) => states.push(state),
    onReconnect: () => (reconnects += 1),
    diagnose,
    timers,
  });
  const last = () => sources.at(-1)!;
  return { sources, delivered, states, timers, follower, last, reconnects: () => reconnects };
}

test("a dropped connection reopens from the last seq and replayed events are not delivered twice", () => {
  const h = harness();
  h.last().emit("open");
  for (const seq of [1, 2, 3]) h.last().emit("message", ev(seq));
  h.last().emit("message", ev(undefined, "agent.delta"));
  h.last().emit("error");
  assert.equal(h.sources[0]!.closed, true);
  h.timers.runAll();
  assert.equal(h.last().url, "/stream?after=3");
  h.last().emit("open");
  // A server that replays from an older cursor: the repeats are dropped.
  for (const seq of [2, 3, 4, 5]) h.last().emit("message", ev(seq));
  h.last().emit("message", ev(6, "run.completed"));
  assert.deepEqual(h.delivered, [1, 2, 3, "agent.delta", 4, 5, 6]);
  assert.deepEqual(h.states, ["connecting", "live", "reconnecting", "live", "ended"]);
  assert.equal(h.last().closed, true, "the stream is closed after the final event");
  assert.equal(h.reconnects(), 1);
});

test("resync reopens at once from the last seq delivered", () => {
  const h = harness();
  h.last().emit("open");
  h.last().emit("message", ev(1));
  h.last().emit("resync", { after: 0 });
  h.timers.runAll();
  assert.equal(h.sources.length, 2);
  assert.equal(h.last().url, "/stream?after=1");
  assert.ok(h.timers.delays.includes(0));
});

test("failures back off, and a successful open resets the delay", () => {
  const h = harness();
  for (let i = 0; i < 4; i += 1) {
    h.last().emit("error");
    h.timers.runAll();
  }
  h.last().emit("open");
  h.last().emit("error");
  h.timers.runAll();
  const retries = h.timers.delays.filter((d) => d >= RETRY_FIRST_MS);
  assert.deepEqual(retries, [RETRY_FIRST_MS, RETRY_FIRST_MS * 2, RETRY_FIRST_MS * 4, RETRY_FIRST_MS * 8, RETRY_FIRST_MS]);
});

test("a failure the server explains (bad token) stops retrying", async () => {
  const h = harness(async () => "invalid token");
  h.last().emit("error");
  await new Promise((resolve) => setImmediate(resolve));
  h.timers.runAll();
  assert.equal(h.sources.length, 1);
  assert.deepEqual(h.states, ["connecting", "reconnecting", "error"]);
});

test("closing drops pending events and stops for good", () => {
  const h = harness();
  h.last().emit("message", ev(1));
  h.follower.close();
  h.timers.runAll();
  h.last().emit("message", ev(2));
  assert.deepEqual(h.delivered, []);
  assert.equal(h.last().closed, true);
});

test("lines that are not envelopes are skipped", () => {
  const h = harness();
  h.last().emit("message", "not json");
  h.last().emit("message", "[1]");
  h.last().emit("message", ev(1));
  h.timers.runAll();
  assert.deepEqual(h.delivered, [1]);
});
