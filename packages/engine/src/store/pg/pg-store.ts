import fs from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { isFinalStatus, isFinalType, RUN_ID_PATTERN, type Envelope, type FeedEnvelope } from "@baton/protocol/core";
import { BatonError } from "../../errors.ts";
import { isAborted } from "../file/follow/read-run.ts";
import type { FollowFeedOptions, FollowRunOptions, LiveListener, ReadFeedOptions, ReadRunOptions } from "../contract/reading.ts";
import { resolveRunRef, runNotFound } from "../contract/run-ref.ts";
import type { RecoveredRun, RunStore } from "../contract/run-store.ts";
import type { RunSummary } from "../contract/run-summary.ts";
import { withEphemeral } from "../file/live/follow-live.ts";
import { claimLease, releaseLease } from "./pg-append.ts";
import type { CancelRequest } from "../../run/cancel-request.ts";
import { cancelRequestsFor, requestRunCancel } from "./pg-cancel.ts";
import { beatWorker, claimDispatchedRun, claimQueuedRun, liveWorkers, registerQueuedRun, stopWorker, type PreviousHolder, type WorkerRow } from "./pg-dispatch.ts";
import { PgCatalog } from "./pg-catalog.ts";
import { displayUrl, reconnecting } from "./pg-connect.ts";
import type { PgContext } from "./pg-context.ts";
import { feedPage, lastFeedPosition, sequenceFeed } from "./pg-feed.ts";
import { ANY_RUN } from "./pg-hints.ts";
import { followPgRun, readPgRun } from "./pg-read.ts";
import { recoverPgRun } from "./pg-recovery.ts";
import { PgRunWriter } from "./pg-run-writer.ts";

/** How soon a feed follower looks again while committed events wait for their positions. */
const UNPLACED_RECHECK_MS = 100;

/**
 * A project's runs in PostgreSQL: the same contract as the file store (see contract/), for
 * any number of machines. Events are rows keyed `(run_id, seq)`; a run's writer holds a lease
 * with an epoch that fences each append; the feed's positions are given in commit order by one
 * sequencer at a time. Local to this machine: each run's directory under `batonDir/runs/`.
 */
export class PgStore implements RunStore {
  readonly feedEpoch: string;
  readonly #context: PgContext;
  readonly #catalog: PgCatalog;
  readonly #writers = new Set<PgRunWriter>();
  #closed = false;

  constructor(context: PgContext, feedEpoch: string) {
    this.#context = context;
    this.#catalog = new PgCatalog(context.pool);
    this.feedEpoch = feedEpoch;
  }

  get batonDir(): string {
    return this.#context.batonDir;
  }

  /** The process's lease owner name (host, pid, random): what `baton workers` shows. */
  get owner(): string {
    return this.#context.owner;
  }

  /** The store's address (a dispatch queue in the same database uses it). */
  get url(): string {
    return this.#context.url;
  }

  /** How long a writer's lease lasts without a heartbeat. */
  get leaseMs(): number {
    return this.#context.leaseMs;
  }

  /**
   * Adds a run that waits for a worker (`baton submit`): a number and its catalog row, no events
   * and no writer; recovery leaves it alone until a worker takes it (`takeDispatchedRun`).
   */
  async queueRun(fields: { task: string; agent: string; model?: string | undefined }): Promise<{ runId: string; number: number }> {
    this.#checkOpen();
    const runId = this.#context.newRunId();
    const number = await registerQueuedRun(this.#context.pool, runId, this.#context.now().toISOString(), fields);
    return { runId, number };
  }

  /**
   * A worker takes a dispatched run: from the queue, or from a worker whose lease has expired
   * (it is fenced off by the new epoch). `ended` when its log already has a final event (the
   * lease is given back); `held` while a live writer has it.
   */
  async takeDispatchedRun(runId: string): Promise<{ writer: PgRunWriter; previous: PreviousHolder } | { ended: true } | { held: string }> {
    this.#checkOpen();
    const claim = await claimDispatchedRun(this.#context.pool, runId, this.#context.owner, this.#context.leaseMs);
    if (claim === undefined) throw runNotFound(runId);
    if ("held" in claim) return claim;
    const lease = { run: runId, owner: this.#context.owner, epoch: claim.epoch };
    const last = await this.#context.pool.query<{ type: string }>("SELECT (body::json)->>'type' AS type FROM baton_events WHERE run_id = $1 ORDER BY seq DESC LIMIT 1", [runId]);
    if (isFinalType(last.rows[0]?.type ?? "")) {
      await releaseLease(this.#context.pool, lease);
      return { ended: true };
    }
    const dir = this.runDir(runId);
    fs.mkdirSync(dir, { recursive: true });
    const writer = this.#track(new PgRunWriter(this.#context, { lease, number: claim.number, lastSeq: claim.previous.lastSeq, dir }, (closed) => this.#writers.delete(closed)));
    return { writer, previous: claim.previous };
  }

  /** A run still waiting in the queue, taken by this process (to cancel it without a worker); undefined once a worker has it. */
  async takeQueuedRun(runId: string): Promise<PgRunWriter | undefined> {
    this.#checkOpen();
    const claim = await claimQueuedRun(this.#context.pool, runId, this.#context.owner, this.#context.leaseMs);
    if (claim === undefined) return undefined;
    const dir = this.runDir(runId);
    fs.mkdirSync(dir, { recursive: true });
    return this.#track(new PgRunWriter(this.#context, { lease: { run: runId, owner: this.#context.owner, epoch: claim.epoch }, number: claim.number, lastSeq: 0, dir }, (closed) => this.#writers.delete(closed)));
  }

  /** Records a request to cancel a run, for the process on any machine that holds it (a NOTIFY wakes it; workers also look at each heartbeat). */
  requestCancel(runId: string, request: CancelRequest): Promise<void> {
    this.#checkOpen();
    return requestRunCancel(this.#context.pool, runId, request);
  }

  /** The cancel requests recorded for any of these runs. */
  cancelRequests(runIds: readonly string[]): Promise<Map<string, CancelRequest>> {
    return cancelRequestsFor(this.#context.pool, runIds);
  }

  /** Calls `listener` with a run's id when any process asks for its cancel (a hint); returns the unsubscribe function. */
  onCancelRequested(listener: (runId: string) => void): () => void {
    return this.#context.hints.onCancel(listener);
  }

  /** Records this process as a worker, or renews its heartbeat (its id is the store's lease owner). */
  beatWorker(worker: { labels: readonly string[]; concurrency: number }): Promise<void> {
    return beatWorker(this.#context.pool, { id: this.#context.owner, host: hostname(), pid: process.pid, labels: worker.labels, concurrency: worker.concurrency, leaseMs: this.#context.leaseMs });
  }

  /** This worker stopped: it is no longer listed. */
  stopWorker(): Promise<void> {
    return stopWorker(this.#context.pool, this.#context.owner);
  }

  /** The live workers and the runs each holds (`baton workers`). */
  workers(): Promise<WorkerRow[]> {
    return liveWorkers(this.#context.pool);
  }

  async createRun(created?: Record<string, unknown>): Promise<PgRunWriter> {
    this.#checkOpen();
    const runId = this.#context.newRunId();
    if (!RUN_ID_PATTERN.test(runId)) throw new TypeError(`${runId} is not a run id (run_ + ULID)`);
    const dir = this.runDir(runId);
    fs.mkdirSync(dir, { recursive: true });
    const number = await this.#catalog.register(runId, this.#context.now().toISOString(), this.#context.owner, this.#context.leaseMs);
    const writer = this.#track(new PgRunWriter(this.#context, { lease: { run: runId, owner: this.#context.owner, epoch: 1 }, number, lastSeq: 0, dir }, (closed) => this.#writers.delete(closed)));
    if (created !== undefined) {
      try {
        writer.append("run.created", created);
      } catch (error) {
        await writer.close();
        throw error;
      }
    }
    return writer;
  }

  async openWriter(runId: string, options: { resumeFailed?: boolean } = {}): Promise<PgRunWriter> {
    this.#checkOpen();
    const claim = await claimLease(this.#context.pool, runId, this.#context.owner, this.#context.leaseMs);
    if (claim === undefined) throw runNotFound(runId);
    if ("held" in claim) {
      throw new BatonError("run_locked", `run ${runId} is being written by ${claim.held.owner}`, { hint: "wait for it to end, or cancel it" });
    }
    const run = (await this.#catalog.get(runId)) as RunSummary;
    const last = await this.#context.pool.query<{ type: string }>("SELECT (body::json)->>'type' AS type FROM baton_events WHERE run_id = $1 ORDER BY seq DESC LIMIT 1", [runId]);
    const lastType = last.rows[0]?.type ?? "";
    const resumable = options.resumeFailed === true && lastType === "run.failed";
    if (isFinalType(lastType) && !resumable) {
      await releaseLease(this.#context.pool, claim.lease);
      throw new BatonError("run_ended", `run ${runId} has ended (${run.status}): it cannot be written any more`, { hint: "start a new run" });
    }
    const dir = this.runDir(runId);
    fs.mkdirSync(dir, { recursive: true });
    return this.#track(new PgRunWriter(this.#context, { lease: claim.lease, number: run.number, lastSeq: run.last_seq, dir }, (closed) => this.#writers.delete(closed)));
  }

  async recoverIfAbandoned(runId: string): Promise<RecoveredRun | undefined> {
    this.#checkOpen();
    return recoverPgRun(this.#context, this.#catalog, runId, (id) => this.runDir(id));
  }

  async listRuns(filter: { status?: string } = {}): Promise<RunSummary[]> {
    this.#checkOpen();
    const open = await this.#context.pool.query<{ id: string; status: string }>("SELECT id, status FROM baton_runs WHERE status <> 'paused' AND NOT dispatched AND (lease_owner IS NULL OR lease_expires_at <= now())");
    for (const run of open.rows) if (!isFinalStatus(run.status)) await this.recoverIfAbandoned(run.id);
    return this.#catalog.list(filter.status);
  }

  getRun(runId: string): Promise<RunSummary | undefined> {
    return this.#catalog.get(runId);
  }

  resolveRun(ref: string): Promise<RunSummary> {
    return resolveRunRef(this.#catalog, ref);
  }

  runDir(runId: string): string {
    if (!RUN_ID_PATTERN.test(runId)) throw runNotFound(runId);
    return path.join(this.#context.batonDir, "runs", runId);
  }

  eventsPath(runId: string): string {
    return `${displayUrl(this.#context.url)} (run ${runId})`;
  }

  readRun(runId: string, options: ReadRunOptions = {}): AsyncGenerator<Envelope> {
    return readPgRun(this.#context.pool, this.#catalog, runId, options);
  }

  followRun(runId: string, options: FollowRunOptions = {}): AsyncGenerator<Envelope> {
    const parts = { url: this.#context.url, pool: this.#context.pool, catalog: this.#catalog, hints: this.#context.hints, pollMs: this.#context.pollMs, recover: (id: string) => this.recoverIfAbandoned(id) };
    if (options.ephemeral !== true) return followPgRun(parts, runId, options);
    return withEphemeral(
      (signal) => followPgRun(parts, runId, { ...options, signal }),
      (listener, signal) => this.tapLive(runId, listener, { signal }),
      options.after ?? 0,
      options.signal,
    );
  }

  tapLive(runId: string, listener: LiveListener, options: { signal: AbortSignal; retryMs?: number }): void {
    this.#checkOpen();
    if (options.signal.aborted) return;
    const off = this.#context.hints.onLive(runId, (message) => listener(message.event as unknown as Envelope, message.after_seq));
    options.signal.addEventListener("abort", off, { once: true });
  }

  async feedPosition(): Promise<number> {
    await sequenceFeed(this.#context.pool, true);
    return lastFeedPosition(this.#context.pool);
  }

  async *readFeed(options: ReadFeedOptions = {}): AsyncGenerator<FeedEnvelope> {
    const until = await this.feedPosition();
    let cursor = options.after ?? 0;
    for (;;) {
      const events = await feedPage(this.#context.pool, cursor, until);
      if (events.length === 0) return;
      for (const event of events) {
        cursor = event.pos;
        yield event;
      }
    }
  }

  async *followFeed(options: FollowFeedOptions = {}): AsyncGenerator<FeedEnvelope> {
    const { signal } = options;
    let cursor = options.after ?? 0;
    while (!isAborted(signal)) {
      const after = cursor;
      // Through a lost connection (a server restart) the same page is read again: nothing lost or repeated.
      const { events, unplaced } = await reconnecting(this.#context.url, async () => {
        const { unplaced } = await sequenceFeed(this.#context.pool, false);
        return { events: await feedPage(this.#context.pool, after, Number.MAX_SAFE_INTEGER), unplaced };
      });
      for (const event of events) {
        cursor = event.pos;
        yield event;
        if (isAborted(signal)) return;
      }
      // Committed events not placed yet: no commit will announce their placing, so look again soon.
      if (events.length === 0) await this.#context.hints.wait(ANY_RUN, unplaced ? Math.min(this.#context.pollMs, UNPLACED_RECHECK_MS) : this.#context.pollMs, signal);
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const errors: unknown[] = [];
    for (const writer of [...this.#writers]) {
      try {
        await writer.close();
      } catch (error) {
        errors.push(error);
      }
    }
    await this.#context.notifier.idle();
    await this.#context.hints.close();
    await this.#context.pool.end();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "closing the store's writers failed");
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #track(writer: PgRunWriter): PgRunWriter {
    this.#writers.add(writer);
    return writer;
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("the store is closed");
  }
}
