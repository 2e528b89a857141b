import fs from "node:fs";
import type { CommitBus } from "./commit-bus.ts";

/**
 * Polling interval of followers: the fallback when `fs.watch` is unavailable or misses an
 * event (network file systems, some containers). It bounds how late a missed wake-up is.
 */
export const FOLLOW_POLL_MS = 200;

/**
 * Wakes a follower when there may be something new: a commit announced on the in-process
 * bus, a change of the hint file the writer touches after each commit (any process), the
 * poll interval, or an abort. A wake-up that comes while the follower is busy reading is
 * remembered, so that a commit landing between "read the frontier" and "wait" is not lost.
 */
export class CommitWaker implements Disposable {
  readonly #hintPath: string;
  readonly #pollMs: number;
  readonly #signal: AbortSignal | undefined;
  readonly #offBus: () => void;
  readonly #onAbort = () => this.#wake();
  #watcher: fs.FSWatcher | undefined;
  #pending = false;
  #resolve: (() => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #disposed = false;

  constructor(options: { hintPath: string; bus: CommitBus; busKey: string; signal?: AbortSignal; pollMs?: number }) {
    this.#hintPath = options.hintPath;
    this.#pollMs = options.pollMs ?? FOLLOW_POLL_MS;
    this.#signal = options.signal;
    this.#offBus = options.bus.on(options.busKey, () => this.#wake());
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
    this.#watch();
  }

  /** Resolves at the next wake-up, or at once if one came since the previous call. */
  wait(): Promise<void> {
    if (this.#disposed || this.#signal?.aborted) return Promise.resolve();
    if (this.#pending) {
      this.#pending = false;
      return Promise.resolve();
    }
    // A watch that failed (the hint file did not exist yet) is retried at each wait.
    if (this.#watcher === undefined) this.#watch();
    return new Promise((resolve) => {
      this.#resolve = resolve;
      this.#timer = setTimeout(() => this.#wake(), this.#pollMs);
    });
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#offBus();
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#watcher?.close();
    this.#wake();
  }

  #wake(): void {
    const resolve = this.#resolve;
    if (resolve === undefined) {
      this.#pending = true;
      return;
    }
    this.#resolve = undefined;
    clearTimeout(this.#timer);
    resolve();
  }

  #watch(): void {
    try {
      const watcher = fs.watch(this.#hintPath, { persistent: false }, () => this.#wake());
      watcher.on("error", () => {
        watcher.close();
        if (this.#watcher === watcher) this.#watcher = undefined;
      });
      this.#watcher = watcher;
    } catch {
      // Not watchable right now: polling covers it until a later wait retries.
      this.#watcher = undefined;
    }
  }
}
