import assert from "node:assert/strict";
import { test } from "node:test";
import { PROTOCOL_VERSION, type Envelope } from "@baton/protocol/core";
import { BatonError } from "../../errors.ts";
import { WriterCore, type CoreBatch } from "./writer-core.ts";

class Batch implements CoreBatch {
  readonly events: Envelope[] = [];
  readonly #done = Promise.withResolvers<void>();
  constructor() {
    this.#done.promise.catch(() => {});
  }
  get durable(): Promise<void> {
    return this.#done.promise;
  }
  resolve(): void {
    this.#done.resolve();
  }
  reject(error: unknown): void {
    this.#done.reject(error);
  }
}

/** A writer over the core whose commit takes a turn of the event loop: what a store's drain does, without a store. */
function writer() {
  const core = new WriterCore<Batch>({ runId: "run_T", number: 1, lastSeq: 0, nowMs: () => 0 });
  const commits: number[][] = [];
  const drain = async () => {
    for (let batch = core.queue.shift(); batch !== undefined && core.broken === undefined; batch = core.queue.shift()) {
      core.inFlight = batch;
      await new Promise((resolve) => setImmediate(resolve));
      commits.push(batch.events.map((event) => event.seq ?? 0));
      core.committed(batch);
    }
  };
  const append = (type: string) => {
    core.checkWritable(type, {});
    const batch = core.openBatch((open) => open.events.length >= 3, () => new Batch());
    const event: Envelope = { v: PROTOCOL_VERSION, run: core.runId, seq: core.nextSeq, at: core.timestamp(), type, data: {} };
    batch.events.push(event);
    core.appended(type, drain);
    return { event, durable: batch.durable };
  };
  return { core, commits, append };
}

test("seqs at append; what is appended in one stretch is one batch, up to its size; delivered once committed, with the ephemeral events in place", async () => {
  const { core, commits, append } = writer();
  const seen: string[] = [];
  core.subscribe((event) => seen.push(event.seq === undefined ? event.type : `${event.seq}`));
  const appended = [append("log"), append("log")];
  core.publishEphemeral({ v: PROTOCOL_VERSION, run: "run_T", at: "", type: "agent.delta", data: {} });
  appended.push(append("log"), append("log"));
  assert.deepEqual(appended.map((a) => a.event.seq), [1, 2, 3, 4]);
  assert.deepEqual(seen, [], "nothing delivered before it is committed");
  await core.flush();
  assert.deepEqual(commits, [[1, 2, 3], [4]]);
  assert.deepEqual(seen, ["1", "2", "agent.delta", "3", "4"]);
  assert.equal(core.committedSeq, 4);
});

test("an event appended when a batch's promise resolves, after the drain's last look, is drained too", async () => {
  const { core, commits, append } = writer();
  await append("log").durable;
  // The continuation of `durable` runs before the drain has let go: this batch must not wait for another append.
  const later = append("log");
  await later.durable;
  assert.deepEqual(commits, [[1], [2]]);
  assert.equal(core.committedSeq, 2);
});

test("a final event ends the writer; a failure refuses what is pending and every later append, and aborts failure once", async () => {
  const { core, append } = writer();
  await append("run.failed").durable;
  assert.throws(() => append("log"), (error) => error instanceof BatonError && error.code === "run_ended");
  core.reopen();
  const pending = append("run.started");
  const broke = new BatonError("store_write_failed", "the disk is gone");
  assert.equal(core.fail(broke), true);
  assert.equal(core.fail(new BatonError("store_write_failed", "again")), false);
  await assert.rejects(pending.durable, broke);
  await assert.rejects(core.flush(), broke);
  assert.equal(core.failure.reason, broke);
  assert.throws(() => append("log"), broke);
});
