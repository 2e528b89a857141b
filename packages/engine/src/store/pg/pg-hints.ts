import type pg from "pg";
import { CANCEL_CHANNEL } from "./pg-cancel.ts";

/** The channel writers notify after each commit: the payload is the committed run ids, space-separated. */
export const COMMIT_CHANNEL = "baton_commit";
/** The channel of ephemeral events: one JSON array of `{run, after_seq, event}` per notification. */
export const LIVE_CHANNEL = "baton_live";
/** The key that every commit wakes: feed followers wait on it. */
export const ANY_RUN = "*";
/** A NOTIFY payload must stay under 8000 bytes. */
export const MAX_PAYLOAD_BYTES = 7_900;
const RECONNECT_MS = 1_000;

type Waiter = () => void;
export type LiveMessage = { run: string; after_seq: number; event: Record<string, unknown> };

/**
 * Wake-ups for followers: NOTIFY from any process (one LISTEN connection per store, opened on
 * first use, reopened after it is lost) and commits of this process. Only hints: every
 * follower also polls, so a lost notification costs latency, never events.
 */
export class PgHints {
  readonly #connect: () => Promise<pg.Client>;
  readonly #waiters = new Map<string, Set<Waiter>>();
  readonly #live = new Map<string, Set<(message: LiveMessage) => void>>();
  readonly #cancels = new Set<(run: string) => void>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(connect: () => Promise<pg.Client>) {
    this.#connect = connect;
  }

  /** Resolves on the next commit of `run` (or of any run, for ANY_RUN), after `pollMs`, or on abort. */
  wait(run: string, pollMs: number, signal?: AbortSignal): Promise<void> {
    this.#ensureListening();
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(run) ?? new Set<Waiter>();
      this.#waiters.set(run, waiters);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        if (waiters.size === 0) this.#waiters.delete(run);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, pollMs);
      waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  /** Wakes the waiters of these runs and of the feed (called for this process's commits and for notifications). */
  wake(runs: Iterable<string>): void {
    for (const run of runs) for (const waiter of [...(this.#waiters.get(run) ?? [])]) waiter();
    for (const waiter of [...(this.#waiters.get(ANY_RUN) ?? [])]) waiter();
  }

  /** Receives the ephemeral events of `run` published by any process; returns the unsubscribe function. */
  onLive(run: string, listener: (message: LiveMessage) => void): () => void {
    this.#ensureListening();
    const listeners = this.#live.get(run) ?? new Set();
    this.#live.set(run, listeners);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0) this.#live.delete(run);
    };
  }

  /** Receives the ids of runs whose cancel was requested by any process (a hint: the request is in baton_cancel_requests); returns the unsubscribe function. */
  onCancel(listener: (run: string) => void): () => void {
    this.#ensureListening();
    this.#cancels.add(listener);
    return () => this.#cancels.delete(listener);
  }

  /** Whether the LISTEN connection is up now (for tests and `baton doctor`). */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#connecting?.catch(() => {});
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  #ensureListening(): void {
    if (this.#closed || this.#client !== undefined || this.#connecting !== undefined || this.#retry !== undefined) return;
    this.#connecting = this.#listen().finally(() => (this.#connecting = undefined));
  }

  async #listen(): Promise<void> {
    let client: pg.Client | undefined;
    try {
      client = await this.#connect();
      client.on("notification", (message) => this.#onNotification(message.channel, message.payload ?? ""));
      const lost = () => this.#lost(client as pg.Client);
      client.on("error", lost);
      client.on("end", lost);
      await client.query(`LISTEN ${COMMIT_CHANNEL}`);
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
      await client.query(`LISTEN ${CANCEL_CHANNEL}`);
      if (this.#closed) {
        await client.end();
        return;
      }
      this.#client = client;
      // Whatever committed while no connection listened is found by the waiters' next poll; wake them now.
      this.wake(this.#waiters.keys());
    } catch {
      await client?.end().catch(() => {});
      this.#scheduleRetry();
    }
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    void client.end().catch(() => {});
    this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#closed || this.#retry !== undefined) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#waiters.size > 0 || this.#live.size > 0 || this.#cancels.size > 0) this.#ensureListening();
    }, RECONNECT_MS);
    this.#retry.unref();
  }

  #onNotification(channel: string, payload: string): void {
    if (channel === COMMIT_CHANNEL) {
      this.wake(payload.split(" ").filter((run) => run !== ""));
      return;
    }
    if (channel === CANCEL_CHANNEL) {
      for (const listener of [...this.#cancels]) listener(payload);
      return;
    }
    if (channel !== LIVE_CHANNEL) return;
    let messages: unknown;
    try {
      messages = JSON.parse(payload);
    } catch {
      return;
    }
    if (!Array.isArray(messages)) return;
    for (const message of messages as LiveMessage[]) {
      if (typeof message?.run !== "string" || typeof message.after_seq !== "number" || typeof message.event !== "object") continue;
      for (const listener of this.#live.get(message.run) ?? []) listener(message);
    }
  }
}

/**
 * Sends NOTIFYs coalesced per process: the runs committed while one is in flight go out
 * together in the next (a pending NOTIFY takes a global lock at commit, so one per batch of
 * every run would serialize the writers).
 */
export class PgNotifier {
  readonly #pool: pg.Pool;
  readonly #runs = new Set<string>();
  readonly #live: string[] = [];
  #sending: Promise<void> | undefined;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  commit(run: string): void {
    this.#runs.add(run);
    this.#kick();
  }

  /** Queues an ephemeral event; one too large for a notification is dropped (best-effort, as the file store's socket). */
  live(message: LiveMessage): void {
    const text = JSON.stringify(message);
    if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES - 2) return;
    this.#live.push(text);
    this.#kick();
  }

  /** Resolves when what was queued so far has been sent. */
  async idle(): Promise<void> {
    while (this.#sending !== undefined) await this.#sending;
  }

  #kick(): void {
    this.#sending ??= this.#send().finally(() => {
      this.#sending = undefined;
      if (this.#runs.size > 0 || this.#live.length > 0) this.#kick();
    });
  }

  async #send(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const runs = [...this.#runs];
    this.#runs.clear();
    const payloads: Array<[string, string]> = [];
    for (let start = 0; start < runs.length; ) {
      let payload = "";
      while (start < runs.length && payload.length + (runs[start] as string).length + 1 < MAX_PAYLOAD_BYTES) payload += `${runs[start++] as string} `;
      payloads.push([COMMIT_CHANNEL, payload.trimEnd()]);
    }
    let batch: string[] = [];
    let bytes = 2;
    for (const text of this.#live.splice(0)) {
      if (bytes + text.length + 1 > MAX_PAYLOAD_BYTES && batch.length > 0) {
        payloads.push([LIVE_CHANNEL, `[${batch.join(",")}]`]);
        batch = [];
        bytes = 2;
      }
      batch.push(text);
      bytes += Buffer.byteLength(text) + 1;
    }
    if (batch.length > 0) payloads.push([LIVE_CHANNEL, `[${batch.join(",")}]`]);
    if (payloads.length === 0) return;
    const channels = payloads.map(([channel]) => channel);
    const texts = payloads.map(([, text]) => text);
    // Hints only: a lost one is found by polling.
    await this.#pool.query("SELECT pg_notify(c, p) FROM unnest($1::text[], $2::text[]) AS t(c, p)", [channels, texts]).catch(() => {});
  }
}
