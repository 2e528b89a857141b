import { isFinalType, type Envelope } from "@baton/protocol/core";
import { BatonError } from "../../errors.ts";
import type { EventListener } from "../contract/run-store-writer.ts";

/** A writer's batch as the core sees it: its events, and one promise for them, settled once the batch is committed or refused. */
export interface CoreBatch {
  readonly durable: Promise<void>;
  readonly events: readonly Envelope[];
  resolve(): void;
  reject(error: unknown): void;
}

type HeldEphemeral = { afterSeq: number; event: Envelope };

/**
 * What every store's run writer shares (the file store's and PostgreSQL's): the seq given at
 * append, group commit (every event appended while a batch is being committed goes into the
 * next batch, drained after the current synchronous stretch), durable before delivered (a
 * batch's events reach listeners only once it is committed), ephemeral events held behind the
 * durable events appended before them, the listeners, and the writer's broken state with its
 * failure signal. How a batch is encoded and committed is the store's own (its `drain`).
 */
export class WriterCore<B extends CoreBatch> {
  readonly runId: string;
  readonly number: number;
  /** Batches appended and not yet committed, oldest first; the last one takes new events until it is full. */
  readonly queue: B[] = [];
  /** The batch being committed. */
  inFlight: B | undefined;
  readonly #listeners = new Set<EventListener>();
  readonly #held: HeldEphemeral[] = [];
  readonly #failure = new AbortController();
  readonly #nowMs: () => number;
  #lastSeq: number;
  #committedSeq: number;
  #ended = false;
  #closing = false;
  #draining = false;
  #broken: BatonError | undefined;
  #lastStampMs = Number.NaN;
  #lastStamp = "";

  constructor(run: { runId: string; number: number; lastSeq: number; nowMs: () => number }) {
    this.runId = run.runId;
    this.number = run.number;
    this.#lastSeq = run.lastSeq;
    this.#committedSeq = run.lastSeq;
    this.#nowMs = run.nowMs;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  get committedSeq(): number {
    return this.#committedSeq;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get broken(): BatonError | undefined {
    return this.#broken;
  }

  get failure(): AbortSignal {
    return this.#failure.signal;
  }

  get closing(): boolean {
    return this.#closing;
  }

  /** Nothing more is appended: the writer is closing. */
  markClosing(): void {
    this.#closing = true;
  }

  /** After a final event, the run goes on under the same writer (a new `run.started` follows a `run.failed`). */
  reopen(): void {
    this.#ended = false;
  }

  /** Throws unless an event of `type` with `data` may be appended or published now. */
  checkWritable(type: string, data: Record<string, unknown>): void {
    if (this.#broken) throw this.#broken;
    if (this.#closing) throw new Error(`the writer of run ${this.runId} is closed`);
    if (this.#ended) throw new BatonError("run_ended", `run ${this.runId} has ended: nothing can follow its final event`, { hint: "start a new run" });
    if (typeof data !== "object" || data === null || Array.isArray(data)) throw new TypeError(`the data of ${type} must be an object`);
  }

  /** `now()` as RFC 3339; formatting a date costs more than the rest of an append, so reuse it within a millisecond. */
  timestamp(): string {
    const ms = this.#nowMs();
    if (ms !== this.#lastStampMs) {
      this.#lastStampMs = ms;
      this.#lastStamp = new Date(ms).toISOString();
    }
    return this.#lastStamp;
  }

  /** run.created carries the run's number (an index is rebuilt from it). */
  withNumber(type: string, data: Record<string, unknown>): Record<string, unknown> {
    if (type !== "run.created") return data;
    if (data["number"] === undefined) return { ...data, number: this.number };
    if (data["number"] !== this.number) throw new TypeError(`run.created says number ${String(data["number"])}, the run is number ${this.number}`);
    return data;
  }

  /** The batch the next event goes into: the last queued one, or a new one when it is full. */
  openBatch(full: (batch: B) => boolean, create: () => B): B {
    let batch = this.queue.at(-1);
    if (batch === undefined || full(batch)) {
      batch = create();
      this.queue.push(batch);
    }
    return batch;
  }

  /** The seq the event being appended gets. */
  get nextSeq(): number {
    return this.#lastSeq + 1;
  }

  /** An event of `type` took `nextSeq`; its batch is drained once the current synchronous stretch ends. */
  appended(type: string, drain: () => Promise<void>): void {
    this.#lastSeq += 1;
    if (isFinalType(type)) this.#ended = true;
    this.#scheduleDrain(drain);
  }

  #scheduleDrain(drain: () => Promise<void>): void {
    if (this.#draining) return;
    this.#draining = true;
    // A microtask: everything appended in the current synchronous stretch goes out in the
    // first batch; later ones gather while the previous batch is being committed.
    queueMicrotask(() => {
      void drain().finally(() => {
        this.inFlight = undefined;
        this.#draining = false;
        // Appended after the drain's last look and before this: drained now.
        if (this.queue.length > 0 && this.#broken === undefined) this.#scheduleDrain(drain);
      });
    });
  }

  /** An ephemeral event: delivered now, or held until the durable events appended before it are committed. */
  publishEphemeral(event: Envelope): void {
    if (this.#lastSeq > this.#committedSeq) this.#held.push({ afterSeq: this.#lastSeq, event });
    else this.#deliver([event]);
  }

  /** A batch is committed: its events are delivered (with the ephemeral events held between them), then its promise resolves. */
  committed(batch: B): void {
    this.#committedSeq = batch.events.at(-1)?.seq ?? this.#committedSeq;
    this.#deliver(this.#withHeldEphemerals(batch.events));
    batch.resolve();
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when every event appended so far is durable; rejects if the writer broke. */
  flush(): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken);
    return this.queue.at(-1)?.durable ?? this.inFlight?.durable ?? Promise.resolve();
  }

  /**
   * The writer breaks, once (the first error is the one it keeps): `batch` and every batch
   * still queued are refused with it, nothing more is appended, and `failure` is aborted.
   * Returns whether this was the first failure.
   */
  fail(error: BatonError, batch?: B): boolean {
    const first = this.#broken === undefined;
    this.#broken ??= error;
    batch?.reject(this.#broken);
    for (const pending of this.queue.splice(0)) pending.reject(this.#broken);
    if (first) this.#failure.abort(this.#broken);
    return first;
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

  /** A listener that throws does not stop delivery: its error is rethrown on its own (as an EventTarget listener's), never swallowed. */
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
}
