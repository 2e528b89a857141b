import { applyToCatalog, EVENT_TYPE_PATTERN, isEphemeralType, PROTOCOL_VERSION, type Envelope, type StageScope } from "@baton/protocol/core";
import { BatonError } from "../../errors.ts";
import type { DurableEnvelope, EventListener, RunStoreWriter } from "../contract/run-store-writer.ts";
import { capEnvelope } from "../file/log/cap-envelope.ts";
import { StoredEnvelope } from "../file/log/stored-envelope.ts";
import { WriterCore } from "../writer-core/writer-core.ts";
import { appendBatch, batchCommitted, releaseLease, renewLease, type Lease } from "./pg-append.ts";
import { MAX_BATCH_EVENTS, PgBatch } from "./pg-batch.ts";
import { isConnectionError } from "./pg-connect.ts";
import type { PgContext } from "./pg-context.ts";
import { readPgLog } from "./pg-read.ts";

/** Connection errors a batch is retried after (the server restarting, a dropped connection). */
const RETRY_MS = 250;

/**
 * The one writer of a run in PostgreSQL, holding its lease. The shared writer core
 * (writer-core/) gives seqs at append, groups the events appended while a batch is in flight
 * into the next one (one statement each) and delivers them once committed. Every batch is
 * fenced by the lease's epoch in its own statement; a writer whose lease is gone (expired and
 * taken by another) gets `lease_lost`, breaks, and aborts `failure` so its run stops.
 */
export class PgRunWriter implements RunStoreWriter {
  readonly runId: string;
  readonly number: number;
  readonly dir: string;
  readonly lease: Lease;
  readonly #context: PgContext;
  readonly #core: WriterCore<PgBatch>;
  #lastType: string | undefined;
  #closing: Promise<void> | undefined;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #onClosed: (writer: PgRunWriter) => void;

  constructor(context: PgContext, state: { lease: Lease; number: number; lastSeq: number; dir: string }, onClosed: (writer: PgRunWriter) => void) {
    this.#context = context;
    this.lease = state.lease;
    this.runId = state.lease.run;
    this.number = state.number;
    this.dir = state.dir;
    this.#core = new WriterCore({ runId: this.runId, number: state.number, lastSeq: state.lastSeq, nowMs: context.nowMs });
    this.#onClosed = onClosed;
    this.#heartbeat = setInterval(() => void this.#renew(), Math.max(50, Math.floor(context.leaseMs / 3)));
    this.#heartbeat.unref();
  }

  get lastSeq(): number {
    return this.#core.lastSeq;
  }

  get committedSeq(): number {
    return this.#core.committedSeq;
  }

  get failure(): AbortSignal {
    return this.#core.failure;
  }

  get ended(): boolean {
    return this.#core.ended;
  }

  append(type: string, data: Record<string, unknown>, stage?: StageScope): DurableEnvelope {
    this.#checkWritable(type, data);
    if (isEphemeralType(type)) throw new TypeError(`${type} is ephemeral: publish it, do not append it`);
    const payload = this.#core.withNumber(type, data);
    JSON.stringify(payload);
    const batch = this.#core.openBatch((open) => open.seqs.length >= MAX_BATCH_EVENTS, () => new PgBatch());
    const seq = this.#core.nextSeq;
    const at = this.#core.timestamp();
    const plain: Envelope = stage === undefined ? { v: PROTOCOL_VERSION, run: this.runId, seq, at, type, data: payload } : { v: PROTOCOL_VERSION, run: this.runId, seq, at, type, stage, data: payload };
    const { line, stored } = capEnvelope(plain, this.#context.eventLimitBytes);
    const event = new StoredEnvelope(stored.v, stored.run, seq, stored.at, stored.type, stored.data, batch.durable, stored.stage);
    batch.seqs.push(seq);
    batch.bodies.push(line);
    batch.bytes += Buffer.byteLength(line) + 1;
    applyToCatalog(batch.patch, event);
    batch.events.push(event);
    this.#lastType = type;
    this.#core.appended(type, () => this.#drain());
    return event as DurableEnvelope;
  }

  /**
   * After the `run.failed` that ended a lost worker's attempt, the run goes on under the same
   * lease (as `baton resume` reopens a failed run): its next event is a new `run.started`.
   */
  resumeAfterFailed(): void {
    if (this.#lastType !== "run.failed") throw new Error(`run ${this.runId}: only a run whose last event is run.failed goes on`);
    this.#core.reopen();
  }

  publish(type: string, data: Record<string, unknown>, stage?: StageScope): Envelope {
    this.#checkWritable(type, data);
    if (!isEphemeralType(type)) throw new TypeError(`${type} is durable: append it, do not publish it`);
    const at = this.#core.timestamp();
    const event: Envelope = stage === undefined ? { v: PROTOCOL_VERSION, run: this.runId, at, type, data } : { v: PROTOCOL_VERSION, run: this.runId, at, type, stage, data };
    const { stored } = capEnvelope(event, this.#context.eventLimitBytes);
    this.#context.notifier.live({ run: this.runId, after_seq: this.#core.lastSeq, event: stored as unknown as Record<string, unknown> });
    this.#core.publishEphemeral(stored);
    return stored;
  }

  subscribe(listener: EventListener): () => void {
    return this.#core.subscribe(listener);
  }

  flush(): Promise<void> {
    return this.#core.flush();
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** From PostgreSQL: the store's pool outlives its writers. */
  readLog(): AsyncIterable<Envelope> {
    return readPgLog(this.#context.pool, this.runId);
  }

  async #close(): Promise<void> {
    this.#core.markClosing();
    try {
      await this.flush();
    } finally {
      clearInterval(this.#heartbeat);
      if (this.#core.broken === undefined) await releaseLease(this.#context.pool, this.lease).catch(() => {});
      await this.#context.notifier.idle();
      this.#onClosed(this);
    }
  }

  #checkWritable(type: string, data: Record<string, unknown>): void {
    this.#core.checkWritable(type, data);
    if (!EVENT_TYPE_PATTERN.test(type)) throw new TypeError(`${JSON.stringify(type)} is not an event type`);
  }

  async #drain(): Promise<void> {
    const core = this.#core;
    for (let next = core.queue.shift(); next !== undefined && core.broken === undefined; next = core.queue.shift()) {
      core.inFlight = next;
      try {
        await this.#commit(next);
        this.#context.notifier.commit(this.runId);
        this.#context.hints.wake([this.runId]);
        core.committed(next);
      } catch (error) {
        this.#fail(error, next);
      }
    }
  }

  /** Commits a batch; after a lost connection, tries again until the lease would have run out. */
  async #commit(batch: PgBatch): Promise<void> {
    const deadline = Date.now() + this.#context.leaseMs;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const inserted = await this.#append(batch);
        if (inserted === batch.seqs.length) return;
        throw leaseLost(this.runId, this.lease.epoch);
      } catch (error) {
        if (error instanceof BatonError) throw error;
        const code = (error as { code?: string }).code;
        // The batch committed before the connection broke: its rows are there, with our epoch.
        if (code === "23505" && attempt > 0 && (await batchCommitted(this.#context.pool, this.lease, batch.seqs))) return;
        if (!isConnectionError(error) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  /** One statement; with the beforeCommit seam, inside a transaction that waits for it before committing. */
  async #append(batch: PgBatch): Promise<number> {
    const { pool, beforeCommit } = this.#context;
    if (beforeCommit === undefined) return appendBatch(pool, this.lease, batch.seqs, batch.bodies, batch.patch, batch.bytes);
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const inserted = await appendBatch(client, this.lease, batch.seqs, batch.bodies, batch.patch, batch.bytes);
      await beforeCommit();
      await client.query("COMMIT");
      return inserted;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  async #renew(): Promise<void> {
    if (this.#core.broken !== undefined || this.#closing !== undefined) return;
    try {
      if (!(await renewLease(this.#context.pool, this.lease, this.#context.leaseMs))) this.#fail(leaseLost(this.runId, this.lease.epoch));
    } catch {
      // Unreachable for now: the next renewal or append tells.
    }
  }

  /**
   * The writer breaks (once: the first error is the one it keeps). Every batch still waiting is
   * refused with it, `batch` too: a batch in flight when the heartbeat found the lease gone
   * ends here after the writer broke, and must not be left waiting.
   */
  #fail(error: unknown, batch?: PgBatch): void {
    const failure =
      error instanceof BatonError
        ? error
        : new BatonError("store_write_failed", `writing run ${this.runId} to PostgreSQL failed: ${error instanceof Error ? error.message : String(error)}`, {
            hint: "check the database; the run can be recovered from what was committed",
            cause: error,
          });
    if (this.#core.fail(failure, batch)) clearInterval(this.#heartbeat);
  }
}

function leaseLost(runId: string, epoch: number): BatonError {
  return new BatonError("lease_lost", `run ${runId} is no longer held by this process (its lease of epoch ${epoch} expired or was taken)`, {
    hint: "another worker may have taken the run over; this one stops",
  });
}
