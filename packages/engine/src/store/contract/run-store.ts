import type { Envelope, FeedEnvelope } from "@baton/protocol/core";
import type { FollowFeedOptions, FollowRunOptions, LiveListener, ReadFeedOptions, ReadRunOptions } from "./reading.ts";
import type { RunStoreWriter } from "./run-store-writer.ts";
import type { RunSummary } from "./run-summary.ts";

/** What `recoverIfAbandoned` appended, and the pid of the writer that had died (when known). */
export type RecoveredRun = { event: Envelope; pid: number | undefined };

/**
 * A project's runs and their events: the contract every store keeps (the embedded file and
 * SQLite store, the PostgreSQL store). A behaviour that differs between two stores is a bug in
 * one of them; `contract/*.contract.ts` is the suite both pass. Dispose it (or `close()`).
 */
export interface RunStore extends AsyncDisposable {
  /** The project's local `.baton` directory (run folders, server info), whatever holds the events. */
  readonly batonDir: string;
  /** Changes when the feed starts over: feed positions from another epoch mean nothing. */
  readonly feedEpoch: string;

  /** Creates a run (a new id and number) and its writer; with `created`, appends `run.created` as seq 1. */
  createRun(created?: Record<string, unknown>): Promise<RunStoreWriter>;
  /**
   * Takes the writer of an existing run (to resume it). Throws `run_locked` while another
   * writer holds it, `run_ended` when it has a final event (unless `resumeFailed` and that
   * event is `run.failed`).
   */
  openWriter(runId: string, options?: { resumeFailed?: boolean }): Promise<RunStoreWriter>;
  /**
   * Ends a run whose writer died: appends the ends of its open starts and `run.failed`
   * (`interrupted`) if it has no final event, is not paused, and no live writer holds it.
   */
  recoverIfAbandoned(runId: string): Promise<RecoveredRun | undefined>;

  /** The runs, by number; runs whose writer died are recovered first. */
  listRuns(filter?: { status?: string }): Promise<RunSummary[]>;
  getRun(runId: string): Promise<RunSummary | undefined>;
  /** A run from a number, an id, or a unique id prefix; throws `run_not_found` or `ambiguous_run`. */
  resolveRun(ref: string): Promise<RunSummary>;
  /** The run's local directory on this machine (see RunStoreWriter.dir). */
  runDir(runId: string): string;
  /** Where the run's log is, for people: a file path, or the store's address and the run. */
  eventsPath(runId: string): string;

  /** The run's durable events with seq > `after`, up to what is committed now. */
  readRun(runId: string, options?: ReadRunOptions): AsyncGenerator<Envelope>;
  /** The run's events with seq > `after`, then new ones as they commit; ends after the final event or on `signal`. */
  followRun(runId: string, options?: FollowRunOptions): AsyncGenerator<Envelope>;
  /** The run's ephemeral events as its writer publishes them, best-effort, until `signal` aborts. */
  tapLive(runId: string, listener: LiveListener, options: { signal: AbortSignal; retryMs?: number }): void;

  /** The highest feed position committed now (0 when the feed is empty). */
  feedPosition(): Promise<number>;
  /** All runs' events with pos > `after`, in commit order, up to what is committed now. */
  readFeed(options?: ReadFeedOptions): AsyncGenerator<FeedEnvelope>;
  /** All runs' events with pos > `after`, then new ones as they commit, until `signal` aborts. */
  followFeed(options?: FollowFeedOptions): AsyncGenerator<FeedEnvelope>;

  /** Closes the open writers (flushing them), then the store. */
  close(): Promise<void>;
}
