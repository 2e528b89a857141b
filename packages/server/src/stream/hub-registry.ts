import { StreamHub, type HubLimits } from "./stream-hub.ts";
import type { StreamSource } from "./stream-source.ts";

/** Instrumentation: what tests and benchmarks observe without timing. */
export type StreamHooks = {
  /** A hub started its one follower (key: a run id, or "feed"). */
  followerStarted?: (key: string) => void;
  /** A client was dropped with `resync` at cursor `after`. */
  clientDropped?: (key: string, after: number) => void;
  /** A dropped client that did not take its `resync` within the grace period was cut off. */
  clientCutOff?: (key: string) => void;
};

/** The live hubs: one per followed run, one for the feed, each gone when its last client leaves. */
export class HubRegistry {
  readonly #hubs = new Map<string, StreamHub>();
  readonly #limits: HubLimits;
  readonly #hooks: StreamHooks;

  constructor(limits: HubLimits, hooks: StreamHooks = {}) {
    this.#limits = limits;
    this.#hooks = hooks;
  }

  /** The hub of `key`, made with `source()` if there is none (or the last one failed). */
  hub(key: string, source: () => StreamSource): StreamHub {
    const existing = this.#hubs.get(key);
    if (existing !== undefined && existing.failed === undefined) return existing;
    const hub: StreamHub = new StreamHub(source(), this.#limits, {
      onIdle: () => {
        if (this.#hubs.get(key) === hub) this.#hubs.delete(key);
      },
      onFollowerStart: () => this.#hooks.followerStarted?.(key),
    });
    this.#hubs.set(key, hub);
    return hub;
  }

  get size(): number {
    return this.#hubs.size;
  }

  get hooks(): StreamHooks {
    return this.#hooks;
  }

  /** Stops every follower (server shutdown); their clients' streams end. */
  closeAll(): void {
    for (const hub of [...this.#hubs.values()]) hub.close();
  }
}
