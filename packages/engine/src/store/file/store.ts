import fs from "node:fs";
import { isFinalStatus, isFinalType, RUN_ID_PATTERN, type Envelope, type FeedEnvelope } from "@baton/protocol/core";
import { BatonError } from "../../errors.ts";
import type { RecoveredRun, RunStore } from "../contract/run-store.ts";
import { followFeed, readFeed, type FollowFeedOptions, type ReadFeedOptions } from "./follow/feed.ts";
import { HintFile } from "./follow/hint-file.ts";
import { readMeta, writeTransaction } from "./index/index-db.ts";
import { runPaths } from "./layout.ts";
import { logOpenFlags, syncDirectory } from "./log/log-file-system.ts";
import { openLockedRun } from "./log/open-run.ts";
import { withEphemeral } from "./live/follow-live.ts";
import { readerSocketPath } from "./live/live-endpoint.ts";
import { tapLive, type LiveListener } from "./live/live-tap.ts";
import { livenessOf } from "./lock/process-identity.ts";
import { followRun, readRun, type FollowRunOptions, type ReadRunOptions } from "./follow/read-run.ts";
import { recoverIfAbandoned } from "./recovery/recovery.ts";
import { resolveRun, runNotFound } from "./resolve-run.ts";
import type { RunSummary } from "./index/run-catalog.ts";
import { RunWriter } from "./log/run-writer.ts";
import type { StoreContext } from "./store-context.ts";
import { acquireWriterLock, readLockHolder } from "./lock/writer-lock.ts";

export type { RecoveredRun };

/** A project's run store. Dispose it (or `close()`) to close its writers and index. */
export class Store implements RunStore {
  readonly #context: StoreContext;
  readonly #writers: Set<RunWriter>;
  #closed = false;

  constructor(context: StoreContext, writers: Set<RunWriter>) {
    this.#context = context;
    this.#writers = writers;
  }

  get batonDir(): string {
    return this.#context.layout.batonDir;
  }

  /** Changes when index.db is rebuilt: feed positions from before a rebuild mean nothing after it. */
  get feedEpoch(): string {
    return String(readMeta(this.#context.db, "feed_epoch") ?? "");
  }

  /**
   * Creates a run: a new id, the next run number (taken in an index write transaction, so
   * two processes never get the same), its directory, and its writer lock. With `created`,
   * appends `run.created` with it (and the number) as seq 1.
   *
   * @example
   * const writer = await store.createRun({ task, agent: "fake", repo: { root, dirty: false } });
   * console.log(writer.number, writer.run);
   */
  async createRun(created?: Record<string, unknown>): Promise<RunWriter> {
    this.#checkOpen();
    const context = this.#context;
    const runId = await context.newRunId();
    if (!RUN_ID_PATTERN.test(runId)) throw new TypeError(`${runId} is not a run id (run_ + ULID)`);
    const paths = runPaths(context.layout, runId);
    fs.mkdirSync(paths.dir);
    // The lock comes before the index row: a run is never listed without its writer's lock,
    // so no other process can take it for abandoned while it is being created.
    const lock = acquireWriterLock(paths, runId, context.identity, context.now().toISOString());
    let fd: number | undefined;
    let commitHint: HintFile | undefined;
    let writer: RunWriter;
    try {
      fd = fs.openSync(paths.events, logOpenFlags(context.fileSystem) | fs.constants.O_EXCL, 0o644);
      commitHint = new HintFile(paths.commitHint);
      syncDirectory(paths.dir);
      syncDirectory(context.layout.runsDir);
      const number = writeTransaction(context.db, () => context.catalog.register(runId, context.now().toISOString()));
      writer = new RunWriter(context, { run: runId, number, fd, size: 0, lastSeq: 0, lock, commitHint }, { live: context.liveEvents });
    } catch (error) {
      if (fd !== undefined) fs.closeSync(fd);
      commitHint?.close();
      lock.release();
      throw error;
    }
    this.#writers.add(writer);
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

  /**
   * Takes the writer of an existing run (to resume it): takes its lock, cuts a torn tail,
   * and continues its seq. Throws `run_locked` when a live process writes it, `run_ended`
   * when it has a final event (unless `resumeFailed` and that event is `run.failed`: a
   * workflow run resumed after a failure continues its log).
   */
  async openWriter(runId: string, options: { resumeFailed?: boolean } = {}): Promise<RunWriter> {
    this.#checkOpen();
    const paths = this.#existingRunPaths(runId);
    const lock = acquireWriterLock(paths, runId, this.#context.identity, this.#context.now().toISOString());
    let opened;
    try {
      opened = await openLockedRun(this.#context, runId, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
    // A failed run may be resumed: its next event is the resume's `run.started`.
    const resumable = options.resumeFailed === true && opened.lastType === "run.failed";
    if (isFinalType(opened.lastType ?? "") && !resumable) {
      fs.closeSync(opened.fd);
      opened.commitHint.close();
      lock.release();
      throw new BatonError("run_ended", `run ${runId} has ended (${opened.status}): it cannot be written any more`, {
        hint: "start a new run",
      });
    }
    const writer = new RunWriter(this.#context, opened, { live: this.#context.liveEvents });
    this.#writers.add(writer);
    return writer;
  }

  /**
   * Ends a run whose writer died: appends `run.failed` (code `interrupted`) if the run has no
   * final event, is not paused, and its lock is absent or stale. Safe to call at any time.
   * Returns what it appended, or undefined when the run was not abandoned (it has ended, is
   * paused, or its writer is alive).
   *
   * @example
   * const recovered = await store.recoverIfAbandoned(run.id);
   * if (recovered) console.log(`run ended: ${recovered.event.type} (writer pid ${recovered.pid})`);
   */
  async recoverIfAbandoned(runId: string): Promise<RecoveredRun | undefined> {
    this.#checkOpen();
    this.#existingRunPaths(runId);
    const outcome = await recoverIfAbandoned(this.#context, runId);
    return outcome.kind === "recovered" ? { event: outcome.event, pid: outcome.pid } : undefined;
  }

  /** The runs, by number. Runs whose writer died are recovered first, so every start has an end. */
  async listRuns(filter: { status?: string } = {}): Promise<RunSummary[]> {
    this.#checkOpen();
    for (const run of this.#context.catalog.list()) {
      if (isFinalStatus(run.status) || run.status === "paused") continue;
      const holder = readLockHolder(runPaths(this.#context.layout, run.id).lock);
      if (holder !== undefined && livenessOf(holder, this.#context.identity) !== "dead") continue;
      await recoverIfAbandoned(this.#context, run.id);
    }
    return this.#context.catalog.list(filter.status);
  }

  /** The directory of a run: its log, lock, and the files other parts keep beside them. */
  runDir(runId: string): string {
    return runPaths(this.#context.layout, runId).dir;
  }

  /** The path of a run's log, `runs/<id>/events.jsonl`. */
  eventsPath(runId: string): string {
    return runPaths(this.#context.layout, runId).events;
  }

  async getRun(runId: string): Promise<RunSummary | undefined> {
    return this.#context.catalog.get(runId);
  }

  /** A run from a number, an id, or a unique id prefix; throws `run_not_found` or `ambiguous_run`. */
  async resolveRun(ref: string): Promise<RunSummary> {
    return resolveRun(this.#context.catalog, ref);
  }

  /**
   * The run's durable events with seq > `after`, up to what is committed now.
   *
   * @example
   * for await (const event of store.readRun(run.id, { after: 10 })) console.log(event.seq, event.type);
   */
  readRun(runId: string, options: ReadRunOptions = {}): AsyncGenerator<Envelope> {
    return readRun(this.#context, runId, options);
  }

  /**
   * The run's events with seq > `after`, then new ones as they are committed (by this or any
   * process); ends after the final event or when `signal` aborts. With `ephemeral`, the run's
   * deltas come too, each after the durable event it followed (see `tapLive`).
   *
   * @example
   * for await (const event of store.followRun(run.id, { after: cursor, signal })) render(event);
   */
  followRun(runId: string, options: FollowRunOptions = {}): AsyncGenerator<Envelope> {
    const recover = (id: string) => recoverIfAbandoned(this.#context, id);
    if (options.ephemeral !== true) return followRun(this.#context, runId, options, recover);
    return withEphemeral(
      (signal) => followRun(this.#context, runId, { ...options, signal }, recover),
      (listener, signal) => this.tapLive(runId, listener, { signal }),
      options.after ?? 0,
      options.signal,
    );
  }

  /**
   * The run's ephemeral events (`agent.delta`) as the process writing it publishes them, each
   * with the seq of the last durable event appended before it: hold an event until you have
   * read that seq to keep it in order. Best-effort: it connects to the writer's live socket
   * now and again whenever it has none while the run is live (every `retryMs`, default 1 s);
   * events published meanwhile are lost, never replayed. Ends when `signal` aborts.
   *
   * @example
   * store.tapLive(run.id, (delta, afterSeq) => pending.push({ delta, afterSeq }), { signal });
   */
  tapLive(runId: string, listener: LiveListener, options: { signal: AbortSignal; retryMs?: number }): void {
    this.#checkOpen();
    const dir = this.#existingRunPaths(runId).dir;
    tapLive(listener, {
      signal: options.signal,
      socketPath: () => readerSocketPath(dir),
      runIsLive: () => !this.#closed && isLiveStatus(this.#context.catalog.get(runId)?.status),
      retryMs: options.retryMs ?? LIVE_RETRY_MS,
    });
  }

  /** The highest feed position committed now (0 when the feed is empty): `followFeed({ after })` from it gives only what comes next. */
  async feedPosition(): Promise<number> {
    return this.#context.feed.nextPos() - 1;
  }

  /** All runs' events with pos > `after`, in commit order, up to what is committed now. */
  readFeed(options: ReadFeedOptions = {}): AsyncGenerator<FeedEnvelope> {
    return readFeed(this.#context, options);
  }

  /** All runs' events with pos > `after`, then new ones as they are committed, until `signal` aborts. */
  followFeed(options: FollowFeedOptions = {}): AsyncGenerator<FeedEnvelope> {
    return followFeed(this.#context, options);
  }

  /** Closes the open writers (flushing them), then the index. */
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
    this.#context.feedHint.close();
    try {
      this.#context.checkpoints.checkpoint();
    } catch {
      // Best-effort: the next store to close (or open) checkpoints what this one left.
    }
    this.#context.db.close();
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "closing the store's writers failed");
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  #checkOpen(): void {
    if (this.#closed) throw new Error("the store is closed");
  }

  #existingRunPaths(runId: string) {
    const paths = runPaths(this.#context.layout, runId);
    if (!RUN_ID_PATTERN.test(runId) || !isDirectory(paths.dir)) throw runNotFound(runId);
    return paths;
  }
}

/** How often a live tap without a connection tries again while the run is live. */
const LIVE_RETRY_MS = 1000;

/** A run that may have (or get again, once resumed) a writer publishing deltas: one that has not ended. */
function isLiveStatus(status: string | undefined): boolean {
  return status !== undefined && !isFinalStatus(status);
}

export function isDirectory(dir: string): boolean {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
