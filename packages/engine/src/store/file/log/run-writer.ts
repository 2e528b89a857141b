import fs from "node:fs";
import path from "node:path";
import { applyToCatalog, PROTOCOL_VERSION, type CatalogPatch, type Envelope, type StageScope } from "@baton/protocol/core";
import { BatonError } from "../../../errors.ts";
import type { DurableEnvelope, EventListener, RunStoreWriter } from "../../contract/run-store-writer.ts";
import { AppendBatch } from "./append-batch.ts";
import { readLogFile } from "./read-log-file.ts";
import { capEnvelope } from "./cap-envelope.ts";
import { EnvelopeLines, type TypeFacts } from "./envelope-line.ts";
import { StoredEnvelope } from "./stored-envelope.ts";
import { WriterCore } from "../../writer-core/writer-core.ts";
import type { HintFile } from "../follow/hint-file.ts";
import { LOG_FILE } from "../layout.ts";
import { writeTransaction } from "../index/index-db.ts";
import { writerEndpoint } from "../live/live-endpoint.ts";
import { LiveServer } from "../live/live-server.ts";
import { storeFailure } from "../store-failure.ts";
import type { StoreContext } from "../store-context.ts";
import type { WriterLock } from "../lock/writer-lock.ts";

/** What a writer shares with its store. */
export type WriterContext = Pick<
  StoreContext,
  "catalog" | "checkpoints" | "feed" | "bus" | "feedHint" | "fileSystem" | "now" | "nowMs" | "eventLimitBytes" | "onClosed"
>;

/** A run's log as the writer takes it over: open, repaired, locked. */
export type WriterState = {
  run: string;
  number: number;
  fd: number;
  size: number;
  lastSeq: number;
  lock: WriterLock;
  commitHint: HintFile;
};

export type { DurableEnvelope, EventListener };

export type RunWriterOptions = {
  /**
   * Serve this run's ephemeral events to other processes on its live socket (see
   * live-server.ts). Off for a writer that only appends a final event (recovery).
   */
  live?: boolean;
};

/**
 * Batch buffers a writer keeps for reuse. Two cover a producer that stays ahead of the disk
 * (one batch in flight, one filling, one queued); each is at most a batch's size.
 */
const SPARE_BUFFERS = 2;

/**
 * The only writer of a run's log, holding the run's lock. `append` gives the event its seq
 * at once and queues it (the shared writer core, writer-core/, holds the seqs, the queue of
 * batches, the listeners and the held ephemeral events); the queue is written by group commit: everything appended while the
 * previous batch was being written forms the next batch, which gets one `write`, one
 * `fdatasync`, one index transaction (its feed positions, the run's new frontier), a touch
 * of the hint files, and only then delivery to subscribers.
 *
 * Delivery order: subscribers see one stream in the order events were appended and
 * published. Durable events arrive after their batch is on disk; an ephemeral event
 * published while durable events are still being synced waits behind them (at most one
 * fsync), so a view never shows streamed text before the message that preceded it.
 */
export class RunWriter implements RunStoreWriter {
  readonly runId: string;
  readonly number: number;
  /** The run's directory (its log, lock, and the files other parts keep beside them). */
  readonly dir: string;
  readonly #context: WriterContext;
  readonly #state: WriterState;
  readonly #core: WriterCore<AppendBatch>;
  readonly #lines: EnvelopeLines;
  /** Buffers of committed batches, for the next ones (see AppendBatch). */
  readonly #spareBuffers: Buffer[] = [];
  /** The live socket other processes read ephemeral events from; undefined when off or unavailable. */
  readonly #live: LiveServer | undefined;
  #size: number;
  #closing: Promise<void> | undefined;

  constructor(context: WriterContext, state: WriterState, options: RunWriterOptions = {}) {
    this.#context = context;
    this.#state = state;
    this.runId = state.run;
    this.dir = path.dirname(state.lock.path);
    this.number = state.number;
    this.#core = new WriterCore({ runId: state.run, number: state.number, lastSeq: state.lastSeq, nowMs: context.nowMs });
    this.#size = state.size;
    this.#lines = new EnvelopeLines(state.run, context.eventLimitBytes);
    const endpoint = options.live === true ? writerEndpoint(this.dir) : undefined;
    this.#live = endpoint === undefined ? undefined : LiveServer.listen(endpoint);
  }

  /** Processes reading this run's ephemeral events on its live socket now. */
  get liveReaderCount(): number {
    return this.#live?.readerCount ?? 0;
  }

  /** Seq of the last event appended (durable or not yet). */
  get lastSeq(): number {
    return this.#core.lastSeq;
  }

  /** Seq of the last event that is durable and indexed. */
  get committedSeq(): number {
    return this.#core.committedSeq;
  }

  /**
   * Aborted, with the error as its reason, when the writer breaks (a write, fsync or index
   * commit failed: a full disk, a read-only or failing one). Whoever produces the run's events
   * listens to it to end the run rather than keep producing events that cannot be written.
   */
  get failure(): AbortSignal {
    return this.#core.failure;
  }

  /** True once a final event (completed, failed, cancelled) has been appended. */
  get ended(): boolean {
    return this.#core.ended;
  }

  /**
   * Appends a durable event: its seq is assigned before this returns, the write happens in
   * the next batch. `data` must be plain JSON data and must not be changed afterwards: it is
   * serialized now, and in-process subscribers receive this same object.
   *
   * @example
   * const event = writer.append("log", { level: "info", message: "hello" });
   * await event.durable; // on disk, visible to followers
   */
  append(type: string, data: Record<string, unknown>, stage?: StageScope): DurableEnvelope {
    const facts = this.#checkWritable(type, data);
    if (facts.ephemeral) throw new TypeError(`${type} is ephemeral: publish it, do not append it`);
    const payload = this.#core.withNumber(type, data);
    // Serialized before a batch is opened: data that cannot be (a cycle, a BigInt) throws here and leaves no trace.
    const json = JSON.stringify(payload) as string | undefined;
    const batch = this.#core.openBatch((open) => open.full, () => new AppendBatch(this.#spareBuffers.pop()));
    const event = new StoredEnvelope(PROTOCOL_VERSION, this.runId, this.#core.nextSeq, this.#core.timestamp(), type, payload, batch.durable, stage);
    const stored = this.#lines.add(batch, event, json, facts);
    // A microtask drains the batch: everything appended in the current synchronous stretch goes
    // out in the first batch; later ones gather while the previous batch is being synced.
    this.#core.appended(type, () => this.#drain());
    return stored;
  }

  /**
   * Delivers an ephemeral event (no seq, never written) to this writer's subscribers, in order
   * with the durable events appended before it, and to the readers of the run's live socket
   * (tagged with the seq of the last event appended before it).
   */
  publish(type: string, data: Record<string, unknown>, stage?: StageScope): Envelope {
    if (!this.#checkWritable(type, data).ephemeral) throw new TypeError(`${type} is durable: append it, do not publish it`);
    const at = this.#core.timestamp();
    const event: Envelope = stage === undefined ? { v: PROTOCOL_VERSION, run: this.runId, at, type, data } : { v: PROTOCOL_VERSION, run: this.runId, at, type, stage, data };
    const { stored } = capEnvelope(event, this.#context.eventLimitBytes);
    this.#live?.send(stored, this.#core.lastSeq);
    this.#core.publishEphemeral(stored);
    return stored;
  }

  /**
   * Receives this writer's events in this process: durable ones after their batch is on
   * disk, ephemeral ones at once. Returns the unsubscribe function. A listener that throws
   * does not stop delivery: the error is rethrown on its own (an uncaught exception, as for
   * an EventTarget listener), never swallowed.
   */
  subscribe(listener: EventListener): () => void {
    return this.#core.subscribe(listener);
  }

  /** Resolves when every event appended so far is durable; rejects if the writer broke. */
  flush(): Promise<void> {
    return this.#core.flush();
  }

  /** Flushes, closes the log and releases the lock. Rejects with the write error if the writer broke. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  readLog(): AsyncIterable<Envelope> {
    return readLogFile(path.join(this.dir, LOG_FILE));
  }

  async #close(): Promise<void> {
    this.#core.markClosing();
    try {
      await this.flush();
    } finally {
      // First: a reader that sees the socket gone finds the run's last events committed.
      this.#live?.close();
      fs.closeSync(this.#state.fd);
      this.#state.commitHint.close();
      this.#state.lock.release();
      this.#context.onClosed(this);
    }
  }

  /** Throws unless an event of `type` with `data` may be written now; returns the type's facts. */
  #checkWritable(type: string, data: Record<string, unknown>): TypeFacts {
    this.#core.checkWritable(type, data);
    return this.#lines.facts(type);
  }

  /**
   * Commits the queued batches in order. As soon as a batch is on disk, the next one's write
   * and fdatasync are started, and only then is the batch made visible (index transaction,
   * hint files, delivery): the disk is not idle while this thread does the batch's index
   * work, and nothing is visible before it is durable.
   */
  async #drain(): Promise<void> {
    const core = this.#core;
    let batch = core.queue.shift();
    let writing = batch === undefined ? undefined : this.#persist(batch, this.#size);
    while (batch !== undefined && writing !== undefined && core.broken === undefined) {
      core.inFlight = batch;
      const offset = this.#size;
      try {
        await writing;
      } catch (error) {
        this.#fail(error, batch);
        break;
      }
      const end = offset + batch.bytes().byteLength;
      const next = core.queue.shift();
      const nextWriting = next === undefined ? undefined : this.#persist(next, end);
      // Awaited in the next turn of the loop; if this batch fails first, it is settled below.
      nextWriting?.catch(() => {});
      if (next !== undefined) core.inFlight = next;
      try {
        this.#publish(batch, offset, end);
      } catch (error) {
        if (next !== undefined && nextWriting !== undefined) {
          // Never acknowledged: its bytes go, as those of a failed write do.
          await nextWriting.catch(() => {});
          cutBack(this.#state.fd, end);
          core.queue.unshift(next);
        }
        this.#fail(error, batch);
        break;
      }
      // Written, synced and delivered: its bytes are no longer needed (a failed batch keeps its buffer).
      if (this.#spareBuffers.length < SPARE_BUFFERS) this.#spareBuffers.push(batch.releaseBuffer());
      // With the next batch's write under way and this one delivered: off the path to visibility.
      this.#context.checkpoints.committed();
      batch = next;
      writing = nextWriting;
      // Appended while this batch was delivered (a listener that appends): written now.
      if (batch === undefined) {
        batch = core.queue.shift();
        writing = batch === undefined ? undefined : this.#persist(batch, this.#size);
      }
    }
  }

  /** Writes a batch at `offset` and waits until it is durable; a failure cuts the log back to `offset`. */
  async #persist(batch: AppendBatch, offset: number): Promise<void> {
    const { fileSystem } = this.#context;
    try {
      // Durable before delivered: nothing is made visible until the batch is on disk (with
      // synchronous writes, the log's O_DSYNC makes the write return only then).
      await fileSystem.write(this.#state.fd, batch.bytes(), offset);
      if (fileSystem.synchronousWrites !== true) await fileSystem.datasync(this.#state.fd);
    } catch (error) {
      cutBack(this.#state.fd, offset);
      throw error;
    }
  }

  /** Makes a durable batch, bytes [offset, end) of the log, visible: index, hint files, subscribers. */
  #publish(batch: AppendBatch, offset: number, end: number): void {
    const { catalog, feed } = this.#context;
    const first = batch.events[0]?.seq ?? this.#core.committedSeq + 1;
    const lastSeq = first + batch.events.length - 1;
    const patch: CatalogPatch = {};
    for (const event of batch.events) applyToCatalog(patch, event);
    const pos = writeTransaction(catalog.db, () => {
      const assigned = feed.add({ run: this.runId, seq_first: first, count: batch.events.length, byte_offset: offset, byte_length: end - offset });
      catalog.applyCommit(this.runId, patch, lastSeq, end);
      return assigned;
    });
    this.#size = end;
    this.#state.commitHint.touch(`seq ${lastSeq} bytes ${end}`);
    this.#context.feedHint.touch(`pos ${pos + batch.events.length - 1}`);
    this.#context.bus.emit(this.runId);
    this.#core.committed(batch);
  }

  /**
   * A failed write, fsync or index commit breaks the writer: every pending append rejects,
   * nothing more is written, and `failure` is aborted. What was committed stays a valid log:
   * recovery ends it once the disk is fixed.
   */
  #fail(error: unknown, batch: AppendBatch): void {
    const doing = `writing run ${this.runId}`;
    const failure =
      storeFailure(error, doing, { code: "store_write_failed" }) ??
      new BatonError("store_write_failed", `${doing} failed: ${error instanceof Error ? error.message : String(error)}`, {
        hint: "check the disk (space, permissions); the run can be recovered from its log",
        cause: error,
      });
    this.#core.fail(failure, batch);
  }
}

/**
 * Cuts the log back to `size` after a failed write or fsync of the batch that began there: a
 * disk that filled mid-write leaves part of a line, which must not stay as the log's last line
 * (no event of the batch was delivered, so none is lost). Truncating frees space and needs
 * none; if it fails all the same, the next open of the log cuts the torn tail (see log-tail.ts).
 */
function cutBack(fd: number, size: number): void {
  try {
    fs.ftruncateSync(fd, size);
  } catch {
    // Left to the next open's tail repair, as for a writer that died mid-write.
  }
}
