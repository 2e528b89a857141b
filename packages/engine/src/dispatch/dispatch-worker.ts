import { setTimeout as sleep } from "node:timers/promises";
import { definedFields, type Envelope } from "@baton/protocol/core";
import { isBatonError } from "../errors.ts";
import type { CancelRequest } from "../run/cancel-request.ts";
import type { RunStoreWriter } from "../store/contract/run-store-writer.ts";
import { QUEUED_OWNER, type PreviousHolder } from "../store/pg/pg-dispatch.ts";
import type { PgRunWriter } from "../store/pg/pg-run-writer.ts";
import type { PgStore } from "../store/pg/pg-store.ts";
import { DispatchQueue, type DispatchTiming } from "./dispatch-queue.ts";
import { endLostRun } from "./lost-run.ts";
import { continueLostRun, type Continuation } from "./continue-run.ts";
import { RemoteCache } from "./remote-cache.ts";
import type { RunJob } from "./run-job.ts";

/**
 * Runs one dispatched run in `checkout` with `writer` (the engine's executeRun or
 * executeWorkflow, as `baton run` does); with `resume`, a workflow run taken over from a lost
 * worker goes on from its checkpoint (as `baton resume` does). `signal` aborts, its reason a
 * CancelRequest, when the run is cancelled from any machine or the worker stops.
 */
export type RunExecutor = (job: RunJob, place: { checkout: string; writer: RunStoreWriter; signal: AbortSignal; resume?: Continuation }) => Promise<void>;

export type WorkerOptions = {
  store: PgStore;
  /** The worker's own folder: its clones of remotes and the runs' checkouts. */
  root: string;
  labels: readonly string[];
  concurrency: number;
  timing?: Partial<DispatchTiming>;
  execute: RunExecutor;
  /** One line about what the worker does (claims, ends, pushes, errors). */
  log: (line: string) => void;
  /** Aborting it stops the worker: its runs are cancelled. */
  signal: AbortSignal;
};

/**
 * `baton worker`: claims dispatched runs from the queue and runs them. A run taken from the
 * queue gets a checkout from the repository's remote and runs with the engine; its branch is
 * pushed to the remote when its work is committed (and at each checkpoint). A run taken from a
 * lost worker (its lease expired) gets `worker.lost` and fails `worker_lost`.
 */
export class DispatchWorker {
  readonly #options: WorkerOptions;
  readonly #cache: RemoteCache;
  readonly #running = new Set<Promise<void>>();
  /** The runs in hand, each with the controller its cancel aborts. */
  readonly #cancels = new Map<string, AbortController>();
  #queue: DispatchQueue | undefined;
  #beat: NodeJS.Timeout | undefined;
  #offCancel: (() => void) | undefined;

  constructor(options: WorkerOptions) {
    this.#options = options;
    this.#cache = new RemoteCache(options.root);
  }

  get id(): string {
    return this.#options.store.owner;
  }

  async start(): Promise<void> {
    const { store, labels, concurrency } = this.#options;
    await store.beatWorker({ labels, concurrency });
    // A cancel asked on any machine: NOTIFY wakes this worker at once; each heartbeat also looks.
    this.#offCancel = store.onCancelRequested((run) => {
      if (this.#cancels.has(run)) void this.#checkCancels([run]);
    });
    this.#beat = setInterval(() => {
      void store.beatWorker({ labels, concurrency }).catch((error: unknown) => this.#options.log(`heartbeat failed: ${String(error)}`));
      void this.#checkCancels([...this.#cancels.keys()]);
    }, Math.max(100, Math.floor(store.leaseMs / 3)));
    this.#queue = await DispatchQueue.open(store.url, { ...definedFields({ timing: this.#options.timing }), onError: (error) => this.#options.log(`dispatch queue: ${error.message}`) });
    await this.#queue.work(labels, concurrency, (job, _signal, attempt) => this.#track(this.#handle(job, attempt)));
  }

  /** Stops claiming, waits for the runs in hand (cancelled by the signal), settles their jobs, and leaves the list of workers. */
  async stop(): Promise<void> {
    await this.#queue?.stopClaiming().catch(() => {});
    await Promise.allSettled([...this.#running]);
    if (this.#beat !== undefined) clearInterval(this.#beat);
    this.#offCancel?.();
    await this.#queue?.stop({ graceful: true });
    await this.#options.store.stopWorker().catch(() => {});
  }

  async #track(work: Promise<void>): Promise<void> {
    this.#running.add(work);
    try {
      await work;
    } finally {
      this.#running.delete(work);
    }
  }

  /** Cancels the runs in hand that were asked to cancel. */
  async #checkCancels(runs: string[]): Promise<void> {
    if (runs.length === 0) return;
    const requests = await this.#options.store.cancelRequests(runs).catch((error: unknown) => {
      this.#options.log(`reading cancel requests failed: ${String(error)}`);
      return new Map<string, CancelRequest>();
    });
    for (const [run, request] of requests) {
      const controller = this.#cancels.get(run);
      if (controller === undefined || controller.signal.aborted) continue;
      this.#options.log(`run ${run}: cancel asked by ${request.by}${request.reason === undefined ? "" : ` (${request.reason})`}`);
      controller.abort(request);
    }
  }

  /** The run's signal: its cancel (asked on any machine) or the worker's stop. */
  #cancelOf(run: string): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    this.#cancels.set(run, controller);
    void this.#checkCancels([run]);
    return { signal: AbortSignal.any([controller.signal, this.#options.signal]), done: () => this.#cancels.delete(run) };
  }

  async #handle(job: RunJob, attempt: number): Promise<void> {
    const { store, log, signal } = this.#options;
    for (;;) {
      if (signal.aborted) throw new Error("the worker is stopping");
      const taken = await store.takeDispatchedRun(job.run);
      if ("ended" in taken) return log(`run ${job.number} has ended already`);
      if ("held" in taken) {
        // A live writer has it (a job retried while its worker still heartbeats): wait for its lease.
        await sleep(Math.max(100, store.leaseMs / 2), undefined, { signal }).catch(() => {});
        continue;
      }
      const { writer, previous } = taken;
      if (previous.owner !== QUEUED_OWNER && previous.lastSeq > 0) {
        if (job.workflow === undefined) {
          log(`run ${job.number}: its worker ${previous.owner ?? "unknown"} was lost (epoch ${previous.epoch}, seq ${previous.lastSeq}); ending it worker_lost`);
          return endLostRun(store, writer, previous, store.owner);
        }
        return this.#continue(job, writer, previous);
      }
      log(`run ${job.number}: claimed (epoch ${writer.lease.epoch})`);
      return this.#run(job, writer, attempt);
    }
  }

  /** A lost worker's workflow run: on from its last checkpoint on the remote, or ended worker_lost. */
  async #continue(job: RunJob, writer: PgRunWriter, previous: PreviousHolder): Promise<void> {
    const { store, log } = this.#options;
    log(`run ${job.number}: its worker ${previous.owner ?? "unknown"} was lost (epoch ${previous.epoch}, seq ${previous.lastSeq}); continuing it from its last checkpoint on the remote`);
    let continuation: Continuation | undefined;
    try {
      continuation = await continueLostRun({ store, writer, previous, job, cache: this.#cache });
    } catch (error) {
      const why = isBatonError(error) ? error.toLine() : String(error);
      log(`run ${job.number}: ${why}`);
      // Refused before its lost attempt was ended (the log unreadable here): ended now, so it is not left open.
      if (!writer.ended && !writer.failure.aborted) return endLostRun(store, writer, previous, store.owner, `it could not continue on ${store.owner}: ${why}`).catch(() => {});
      await writer.close().catch(() => {});
      return;
    }
    if (continuation === undefined) {
      log(`run ${job.number}: it cannot continue here (no checkpoint of it is on the remote, or the remote could not be read); ended worker_lost`);
      await writer.close();
      return;
    }
    log(`run ${job.number}: continues after stage ${continuation.stage} (attempt ${continuation.attempt})`);
    return this.#run(job, writer, 0, continuation);
  }

  async #run(job: RunJob, writer: RunStoreWriter, attempt: number, resume?: Continuation): Promise<void> {
    const { log } = this.#options;
    let checkout: string;
    try {
      checkout = resume?.checkout ?? (await this.#cache.checkout(job.remote, job.base, job.run));
    } catch (error) {
      // Perhaps this worker's folder (a remote unreachable from here, a disk full): the run is given back, nothing written, for a retry, elsewhere too.
      if (attempt < CHECKOUT_ATTEMPTS - 1) {
        log(`run ${job.number}: ${isBatonError(error) ? error.toLine() : String(error)}; given back for another try`);
        await writer.close();
        throw error;
      }
      return failBeforeStart(writer, job, error);
    }
    const pushes = new Set<Promise<void>>();
    let branch: string | undefined = resume?.workspace.branch;
    const push = (why: string) => {
      if (branch === undefined || writer.failure.aborted) return;
      const pushing = this.#cache.push(job.remote, branch).then(
        () => log(`run ${job.number}: pushed ${branch} (${why})`),
        (error: unknown) => log(`run ${job.number}: ${isBatonError(error) ? error.toLine() : String(error)}`),
      );
      pushes.add(pushing);
    };
    const unsubscribe = writer.subscribe((event: Envelope) => {
      if (event.type === "workspace.ready" && typeof event.data["branch"] === "string") branch = event.data["branch"];
      // A fan-out branch's checkpoints and commits are on a branch of its own: the run's is pushed at its fan-in.
      else if (event.stage?.branch !== undefined) return;
      else if (event.type === "checkpoint.saved") push("checkpoint");
      else if (event.type === "git.committed") push("work committed");
    });
    const cancel = this.#cancelOf(job.run);
    const resumedAt = writer.lastSeq;
    try {
      await this.#options.execute(job, definedFields({ checkout, writer, signal: cancel.signal, resume }));
      push("the run ended");
    } catch (error) {
      if (resume !== undefined && writer.lastSeq === resumedAt && !writer.failure.aborted) {
        // Refused before it went on: the lost attempt's run.failed stays its end.
        log(`run ${job.number}: ${isBatonError(error) ? error.toLine() : String(error)}; it cannot continue here`);
        await writer.close();
        return;
      }
      if (!writer.ended && !writer.failure.aborted) {
        // Refused before anything was written (its workspace could not be planned here): another try first.
        if (writer.lastSeq === 0 && attempt < CHECKOUT_ATTEMPTS - 1) {
          log(`run ${job.number}: ${isBatonError(error) ? error.toLine() : String(error)}; given back for another try`);
          await writer.close();
          throw error;
        }
        return failBeforeStart(writer, job, error);
      }
      log(`run ${job.number}: ${isBatonError(error) ? error.toLine() : String(error)}`);
    } finally {
      cancel.done();
      unsubscribe();
      await Promise.allSettled([...pushes]);
    }
    if (writer.failure.aborted) log(`run ${job.number}: ${String((writer.failure.reason as Error | undefined)?.message ?? "its lease was lost")}; stopped`);
    else log(`run ${job.number}: ended`);
  }
}

/** Tries at a run's start (its checkout, its workspace planned; each a job attempt, on any worker) before the run fails. */
const CHECKOUT_ATTEMPTS = 3;

/** A run that could not start on this worker (no checkout, a bad job): created and failed, so it ends once. */
async function failBeforeStart(writer: RunStoreWriter, job: RunJob, error: unknown): Promise<void> {
  const info = isBatonError(error) ? { code: error.code, message: error.toLine() } : { code: "internal", message: error instanceof Error ? error.message : String(error) };
  try {
    if (writer.lastSeq === 0) writer.append("run.created", { number: writer.number, task: job.task, agent: job.agent, repo: { root: job.remote, sha: job.base, dirty: false } });
    if (!writer.ended) writer.append("run.failed", { error: info });
  } finally {
    await writer.close();
  }
}
