import fs from "node:fs";
import path from "node:path";
import { applyToCatalog, PROTOCOL_VERSION, type CatalogPatch, type Envelope, type StageScope } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import { AppendBatch } from "./append-batch.ts";
import { capEnvelope } from "./cap-envelope.ts";
import { EnvelopeLines, type TypeFacts } from "./envelope-line.ts";
import { StoredEnvelope } from "./stored-envelope.ts";
import type { HintFile } from "./hint-file.ts";
import { writeTransaction } from "./index-db.ts";
import { writerEndpoint } from "./live-endpoint.ts";
import { LiveServer } from "./live-server.ts";
import { storeFailure } from "./store-failure.ts";
import type { StoreContext } from "./store-context.ts";
import type { WriterLock } from "./writer-lock.ts";

/** What a writer shares with its store. */
export type WriterContext = Pick<
  StoreContext,
  "catalog" | "feed" | "bus" | "feedHint" | "fileSystem" | "now" | "nowMs" | "eventLimitBytes" | "onClosed"
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

/**
 * The envelope `append` returns: as stored (its `data` replaced by a truncation marker if it
 * was too large), with `durable`, a promise that resolves once the event is on disk and
 * indexed and rejects if its batch failed. `durable` is not an own enumerable property, so
 * the envelope serializes, spreads and clones as a plain envelope (see StoredEnvelope).
 */
export type DurableEnvelope = Envelope & { readonly durable: Promise<void> };

export type EventListener = (event: Envelope) => void;

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

type HeldEphemeral = { afterSeq: number; event: Envelope };

/**
 * The only writer of a run's log, holding the run's lock. `append` gives the event its seq
 * at once and queues it; the queue is written by group commit: everything appended while the
 * previous batch was being written forms the next batch, which gets one `write`, one
 * `fdatasync`, one index transaction (its feed positions, the run's new frontier), a touch
 * of the hint files, and only then delivery to subscribers.
 *
 * Delivery order: subscribers see one stream in the order events were appended and
 * published. Durable events arrive after their batch is on disk; an ephemeral event
 * published while durable events are still being synced waits behind them (at most one
 * fsync), so a view never shows streamed text before the message that preceded it.
 */
export class RunWriter implements AsyncDisposable {
  readonly runId: string;
  readonly number: number;
  /** The run's directory (its log, lock, and the files other parts keep beside them). */
  readonly dir: string;
  readonly #context: WriterContext;
  readonly #state: WriterState;
  readonly #listeners = new Set<EventListener>();
  /** Ephemeral events waiting for the durable events appended before them to be committed. */
  readonly #held: HeldEphemeral[] = [];
  readonly #queue: AppendBatch[] = [];
  readonly #lines: EnvelopeLines;
  #inFlight: AppendBatch | undefined;
  /** Buffers of committed batches, for the next ones (see AppendBatch). */
  readonly #spareBuffers: Buffer[] = [];
  /** The live socket other processes read ephemeral events from; undefined when off or unavailable. */
  readonly #live: LiveServer | undefined;
  #lastSeq: number;
  #committedSeq: number;
  #size: number;
  #ended = false;
  #draining = false;
  #broken: BatonError | undefined;
  readonly #failure = new AbortController();
  #closing: Promise<void> | undefined;
  #lastStampMs = Number.NaN;
  #lastStamp = "";

  constructor(context: WriterContext, state: WriterState, options: RunWriterOptions = {}) {
    this.#context = context;
    this.#state = state;
    this.runId = state.run;
    this.dir = path.dirname(state.lock.path);
    this.number = state.number;
    this.#lastSeq = state.lastSeq;
    this.#committedSeq = state.lastSeq;
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
    return this.#lastSeq;
  }

  /** Seq of the last event that is durable and indexed. */
  get committedSeq(): number {
    return this.#committedSeq;
  }

  /**
   * Aborted, with the error as its reason, when the writer breaks (a write, fsync or index
   * commit failed: a full disk, a read-only or failing one). Whoever produces the run's events
   * listens to it to end the run rather than keep producing events that cannot be written.
   */
  get failure(): AbortSignal {
    return this.#failure.signal;
  }

  /** True once a final event (completed, failed, cancelled) has been appended. */
  get ended(): boolean {
    return this.#ended;
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
    const payload = type === "run.created" ? this.#withNumber(data) : data;
    // Serialized before a batch is opened: data that cannot be (a cycle, a BigInt) throws here and leaves no trace.
    const json = JSON.stringify(payload) as string | undefined;
    const batch = this.#openBatch();
    const event = new StoredEnvelope(PROTOCOL_VERSION, this.runId, this.#lastSeq + 1, this.#timestamp(), type, payload, batch.durable, stage);
    const stored = this.#lines.add(batch, event, json, facts);
    this.#lastSeq += 1;
    if (facts.final) this.#ended = true;
    this.#scheduleDrain();
    return stored;
  }

  /**
   * Delivers an ephemeral event (no seq, never written) to this writer's subscribers, in order
   * with the durable events appended before it, and to the readers of the run's live socket
   * (tagged with the seq of the last event appended before it).
   */
  publish(type: string, data: Record<string, unknown>, stage?: StageScope): Envelope {
    if (!this.#checkWritable(type, data).ephemeral) throw new TypeError(`${type} is durable: append it, do not publish it`);
    const event: Envelope = stage === undefined ? { v: PROTOCOL_VERSION, run: this.runId, at: this.#timestamp(), type, data } : { v: PROTOCOL_VERSION, run: this.runId, at: this.#timestamp(), type, stage, data };
    const { stored } = capEnvelope(event, this.#context.eventLimitBytes);
    this.#live?.send(stored, this.#lastSeq);
    if (this.#lastSeq > this.#committedSeq) this.#held.push({ afterSeq: this.#lastSeq, event: stored });
    else this.#deliver([stored]);
    return stored;
  }

  /**
   * Receives this writer's events in this process: durable ones after their batch is on
   * disk, ephemeral ones at once. Returns the unsubscribe function. A listener that throws
   * does not stop delivery: the error is rethrown on its own (an uncaught exception, as for
   * an EventTarget listener), never swallowed.
   */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when every event appended so far is durable; rejects if the writer broke. */
  flush(): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken);
    return this.#queue.at(-1)?.durable ?? this.#inFlight?.durable ?? Promise.resolve();
  }

  /** Flushes, closes the log and releases the lock. Rejects with the write error if the writer broke. */
  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  async #close(): Promise<void> {
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

  /** `now()` as RFC 3339; formatting a date costs more than the rest of an append, so reuse it within a millisecond. */
  #timestamp(): string {
    const ms = this.#context.nowMs();
    if (ms !== this.#lastStampMs) {
      this.#lastStampMs = ms;
      this.#lastStamp = new Date(ms).toISOString();
    }
    return this.#lastStamp;
  }

  /** Throws unless an event of `type` with `data` may be written now; returns the type's facts. */
  #checkWritable(type: string, data: Record<string, unknown>): TypeFacts {
    if (this.#broken) throw this.#broken;
    if (this.#closing) throw new Error(`the writer of run ${this.runId} is closed`);
    if (this.#ended) {
      throw new BatonError("run_ended", `run ${this.runId} has ended: nothing can follow its final event`, {
        hint: "start a new run",
      });
    }
    const facts = this.#lines.facts(type);
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw new TypeError(`the data of ${type} must be an object`);
    return facts;
  }

  /** The batch the next line goes into: the last queued one, or a new one when it is full. */
  #openBatch(): AppendBatch {
    let batch = this.#queue.at(-1);
    if (batch === undefined || batch.full) {
      batch = new AppendBatch(this.#spareBuffers.pop());
      this.#queue.push(batch);
    }
    return batch;
  }

  /** run.created carries the run's number: the index is rebuilt from it. */
  #withNumber(data: Record<string, unknown>): Record<string, unknown> {
    if (data["number"] === undefined) return { ...data, number: this.number };
    if (data["number"] !== this.number) throw new TypeError(`run.created says number ${String(data["number"])}, the run is number ${this.number}`);
    return data;
  }

  #scheduleDrain(): void {
    if (this.#draining) return;
    this.#draining = true;
    // A microtask, so that everything appended in the current synchronous stretch goes out
    // in the first batch; later ones gather while the previous batch is being synced.
    queueMicrotask(() => void this.#drain());
  }

  async #drain(): Promise<void> {
    try {
      for (let batch = this.#queue.shift(); batch !== undefined && !this.#broken; batch = this.#queue.shift()) {
        this.#inFlight = batch;
        try {
          await this.#commit(batch);
          // Written and synced: its bytes are no longer needed (a failed batch keeps its buffer).
          if (this.#spareBuffers.length < SPARE_BUFFERS) this.#spareBuffers.push(batch.releaseBuffer());
          batch.resolve();
        } catch (error) {
          this.#fail(error, batch);
        }
      }
    } finally {
      this.#inFlight = undefined;
      this.#draining = false;
    }
  }

  async #commit(batch: AppendBatch): Promise<void> {
    const bytes = batch.bytes();
    const offset = this.#size;
    const { fileSystem, catalog, feed } = this.#context;
    try {
      await fileSystem.write(this.#state.fd, bytes, offset);
      // Durable before delivered: nothing below happens until the batch is on disk.
      await fileSystem.datasync(this.#state.fd);
    } catch (error) {
      cutBack(this.#state.fd, offset);
      throw error;
    }
    const first = batch.events[0]?.seq ?? this.#committedSeq + 1;
    const lastSeq = first + batch.events.length - 1;
    const patch: CatalogPatch = {};
    for (const event of batch.events) applyToCatalog(patch, event);
    const pos = writeTransaction(catalog.db, () => {
      const assigned = feed.add({ run: this.runId, seq_first: first, count: batch.events.length, byte_offset: offset, byte_length: bytes.byteLength });
      catalog.applyCommit(this.runId, patch, lastSeq, offset + bytes.byteLength);
      return assigned;
    });
    this.#size = offset + bytes.byteLength;
    this.#committedSeq = lastSeq;
    this.#state.commitHint.touch(`seq ${lastSeq} bytes ${this.#size}`);
    this.#context.feedHint.touch(`pos ${pos + batch.events.length - 1}`);
    this.#context.bus.emit(this.runId);
    this.#deliver(this.#withHeldEphemerals(batch.events));
  }

  /** The batch's events with the ephemeral ones published between them put back in place. */
  #withHeldEphemerals(events: readonly Envelope[]): readonly Envelope[] {
    if (this.#held.length === 0) return events;
    const ordered: Envelope[] = [];
    for (const event of events) {
      ordered.push(event);
      while (this.#held[0] !== undefined && this.#held[0].afterSeq <= (event.seq ?? 0)) ordered.push((this.#held.shift() as HeldEphemeral).event);
    }
    return ordered;
  }

  #deliver(events: readonly Envelope[]): void {
    if (this.#listeners.size === 0) return;
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch (error) {
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    }
  }

  /**
   * A failed write, fsync or index commit breaks the writer: every pending append rejects,
   * nothing more is written, and `failure` is aborted. What was committed stays a valid log:
   * recovery ends it once the disk is fixed.
   */
  #fail(error: unknown, batch: AppendBatch): void {
    const doing = `writing run ${this.runId}`;
    this.#broken =
      storeFailure(error, doing, { code: "store_write_failed" }) ??
      new BatonError("store_write_failed", `${doing} failed: ${error instanceof Error ? error.message : String(error)}`, {
        hint: "check the disk (space, permissions); the run can be recovered from its log",
        cause: error,
      });
    batch.reject(this.#broken);
    for (const pending of this.#queue.splice(0)) pending.reject(this.#broken);
    this.#failure.abort(this.#broken);
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
