import { PgBoss, type Job } from "pg-boss";
import { BatonError } from "../errors.ts";
import { queueFor, RUN_QUEUE, runJobSchema, type RunJob } from "./run-job.ts";

export type DispatchTiming = {
  /** A worker that misses its heartbeats this long loses its jobs to a retry (pg-boss needs at least 10 s). */
  heartbeatSeconds: number;
  /** How often the queue's supervisor fails jobs whose heartbeat stopped. */
  superviseSeconds: number;
  /** How often an idle worker polls for jobs (NOTIFY wakes it sooner). */
  pollSeconds: number;
};

export const DEFAULT_DISPATCH_TIMING: DispatchTiming = { heartbeatSeconds: 30, superviseSeconds: 10, pollSeconds: 2 };

/** Seconds a worker may miss heartbeats before its job is retried elsewhere (at least 10): for tests and operators. */
export const HEARTBEAT_ENV = "BATON_DISPATCH_HEARTBEAT";

/** The dispatch timing, with the heartbeat from `BATON_DISPATCH_HEARTBEAT` when set (the supervisor checks five times per heartbeat). */
export function dispatchTimingFrom(env: Record<string, string | undefined>): Partial<DispatchTiming> {
  const text = env[HEARTBEAT_ENV];
  if (text === undefined || text === "") return {};
  const seconds = Number(text);
  if (!Number.isInteger(seconds) || seconds < 10) throw new BatonError("usage", `${HEARTBEAT_ENV}=${JSON.stringify(text.slice(0, 40))} is not a heartbeat`, { hint: "give whole seconds, at least 10" });
  return { heartbeatSeconds: seconds, superviseSeconds: Math.max(1, Math.floor(seconds / 5)), pollSeconds: 1 };
}

/** A job is retried this often (a worker lost each time) before it is given up. */
const RETRY_LIMIT = 20;
/** pg-boss's longest job: the heartbeat, not this, tells a lost worker. */
const EXPIRE_SECONDS = 24 * 60 * 60;

/**
 * The runs' dispatch queue, in pg-boss in the store's own database (its `pgboss` schema): a
 * job per run with the run id as its singleton key (one job per run queued or active),
 * heartbeats while a worker holds it, and a retry on another worker when they stop.
 */
export class DispatchQueue {
  readonly #boss: PgBoss;
  readonly #timing: DispatchTiming;
  readonly #queues = new Set<string>();
  readonly #worked: string[] = [];

  private constructor(boss: PgBoss, timing: DispatchTiming) {
    this.#boss = boss;
    this.#timing = timing;
  }

  /** Connects to the queue at `url` (creating pg-boss's schema on first use). */
  static async open(url: string, options: { timing?: Partial<DispatchTiming>; supervise?: boolean; onError?: (error: Error) => void } = {}): Promise<DispatchQueue> {
    const timing = { ...DEFAULT_DISPATCH_TIMING, ...options.timing };
    const boss = new PgBoss({
      connectionString: url,
      application_name: "baton-dispatch",
      max: 4,
      supervise: options.supervise ?? true,
      superviseIntervalSeconds: timing.superviseSeconds,
      monitorIntervalSeconds: timing.superviseSeconds,
      schedule: false,
      registerInstance: false,
      // Workers are woken when a job is queued; polling stays as the floor.
      useListenNotify: options.supervise ?? true,
    });
    boss.on("error", (error: Error) => options.onError?.(error));
    try {
      await boss.start();
    } catch (error) {
      await boss.stop({ graceful: false }).catch(() => {});
      throw new BatonError("dispatch_unavailable", `the dispatch queue could not start: ${(error as Error).message}`, { hint: "check the store URL and that `baton store migrate` ran", cause: error });
    }
    return new DispatchQueue(boss, timing);
  }

  /** Puts a run's job in its queue; the run id is the job's singleton key. */
  async enqueue(job: RunJob): Promise<string> {
    const name = await this.#queue(job.label);
    const id = await this.#boss.send(name, job, { singletonKey: job.run, heartbeatSeconds: this.#timing.heartbeatSeconds, retryLimit: RETRY_LIMIT, retryDelay: 0, expireInSeconds: EXPIRE_SECONDS });
    if (id === null) throw new BatonError("run_already_queued", `run ${job.run} already has a job in the dispatch queue`, { hint: "wait for it to be claimed" });
    return id;
  }

  /**
   * Works the queues of `labels` (and the unlabelled one), `concurrency` jobs at a time. The
   * handler's job signal aborts when pg-boss finds the claim gone (the job failed over).
   */
  async work(labels: readonly string[], concurrency: number, handler: (job: RunJob, signal: AbortSignal, attempt: number) => Promise<void>): Promise<void> {
    for (const label of [undefined, ...labels]) {
      const name = await this.#queue(label);
      this.#worked.push(name);
      await this.#boss.work<RunJob>(name, { localConcurrency: concurrency, batchSize: 1, pollingIntervalSeconds: this.#timing.pollSeconds, notifyPollingIntervalSeconds: this.#timing.pollSeconds }, async (jobs: Job<RunJob>[]) => {
        for (const job of jobs) await handler(runJobSchema.parse(job.data), job.signal, job.retryCount);
      });
    }
  }

  /** Removes a run's job still waiting in any runs' queue (its run was cancelled before a worker took it); returns its data. */
  async removeQueued(run: string): Promise<RunJob | undefined> {
    let removed: RunJob | undefined;
    for (const queue of await this.#boss.getQueues()) {
      if (queue.name !== RUN_QUEUE && !queue.name.startsWith(`${RUN_QUEUE}.`)) continue;
      const jobs = await this.#boss.findJobs<RunJob>(queue.name, { key: run, queued: true });
      if (jobs.length === 0) continue;
      await this.#boss.deleteJob(queue.name, jobs.map((job) => job.id));
      const parsed = runJobSchema.safeParse(jobs[0]?.data);
      if (parsed.success) removed ??= parsed.data;
    }
    return removed;
  }

  /** Claims no more jobs; the ones in hand go on. */
  async stopClaiming(): Promise<void> {
    for (const name of this.#worked.splice(0)) await this.#boss.offWork(name, { wait: false });
  }

  /** Closes the connections; gracefully, after settling the jobs in hand (a job not settled is left to its heartbeat). */
  async stop(options: { graceful?: boolean } = {}): Promise<void> {
    await this.#boss.stop({ graceful: options.graceful ?? false, close: true, timeout: options.graceful === true ? 10_000 : 1_000 });
  }

  async #queue(label: string | undefined): Promise<string> {
    const name = queueFor(label);
    if (this.#queues.has(name)) return name;
    if ((await this.#boss.getQueue(name)) === null) {
      await this.#boss.createQueue(name, { policy: "exclusive", notify: true, heartbeatSeconds: this.#timing.heartbeatSeconds, retryLimit: RETRY_LIMIT, retryDelay: 0, expireInSeconds: EXPIRE_SECONDS }).catch(async (error: unknown) => {
        // Another process made it first.
        if ((await this.#boss.getQueue(name)) === null) throw error;
      });
    }
    this.#queues.add(name);
    return name;
  }
}
