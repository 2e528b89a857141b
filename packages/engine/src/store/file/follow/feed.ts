import fs, { type FileHandle } from "node:fs/promises";
import type { FeedEnvelope } from "@baton/protocol/core";
import { FEED_KEY } from "./commit-bus.ts";
import { CommitWaker } from "./commit-waker.ts";
import { runPaths } from "../layout.ts";
import { isAborted } from "./read-run.ts";
import { readLogRange, type OnMalformed } from "../log/log-range-reader.ts";
import type { StoreContext } from "../store-context.ts";

import type { ReadFeedOptions, FollowFeedOptions } from "../../contract/reading.ts";
export type { ReadFeedOptions, FollowFeedOptions };

/** Feed batches fetched per query: bounded, and no read transaction held while yielding. */
const FEED_PAGE_ROWS = 256;
/** Run logs kept open at once while reading the feed. */
const OPEN_LOGS = 16;

/** The events of all runs with pos > `after`, in pos order, up to the last committed position now. */
export async function* readFeed(context: StoreContext, options: ReadFeedOptions = {}): AsyncGenerator<FeedEnvelope> {
  const until = context.feed.nextPos() - 1;
  const reader = new FeedReader(context, options.after ?? 0, options.onMalformed ?? context.onMalformed);
  try {
    yield* reader.readAvailable(until);
  } finally {
    await reader.close();
  }
}

/**
 * The events of all runs with pos > `after`, in pos order, then new ones as they are
 * committed, until `signal` aborts. Positions are handed out in commit order inside the
 * index's write transaction, so what a page query sees is a prefix of the final order: a
 * follower resumed from any position gets exactly the rest.
 */
export async function* followFeed(context: StoreContext, options: FollowFeedOptions = {}): AsyncGenerator<FeedEnvelope> {
  const { signal } = options;
  using waker = new CommitWaker({ hintPath: context.layout.feedHintPath, bus: context.bus, busKey: FEED_KEY, signal, pollMs: context.pollMs });
  const reader = new FeedReader(context, options.after ?? 0, options.onMalformed ?? context.onMalformed);
  try {
    while (!isAborted(signal)) {
      for await (const event of reader.readAvailable(Number.MAX_SAFE_INTEGER, signal)) {
        yield event;
        if (isAborted(signal)) return;
      }
      await waker.wait();
    }
  } finally {
    await reader.close();
  }
}

class FeedReader {
  readonly #context: StoreContext;
  readonly #onMalformed: OnMalformed;
  readonly #logs = new Map<string, FileHandle>();
  readonly #numbers = new Map<string, number>();
  #cursor: number;

  constructor(context: StoreContext, after: number, onMalformed: OnMalformed) {
    this.#context = context;
    this.#cursor = after;
    this.#onMalformed = onMalformed;
  }

  /**
   * Yields what is committed after the cursor, up to `until`, advancing the cursor. Returns
   * when there is nothing more, when `signal` aborts (checked per batch: a follower whose
   * consumer left must stop even where no event comes out), or when a page moved the cursor
   * nowhere, so that a caught-up follower waits for a commit instead of reading in a loop.
   */
  async *readAvailable(until: number, signal?: AbortSignal): AsyncGenerator<FeedEnvelope> {
    for (;;) {
      const before = this.#cursor;
      const rows = this.#context.feed.after(this.#cursor, FEED_PAGE_ROWS).filter((row) => row.pos_first <= until);
      if (rows.length === 0) return;
      for (const row of rows) {
        if (isAborted(signal)) return;
        const file = runPaths(this.#context.layout, row.run).events;
        const handle = await this.#log(row.run, file);
        const number = this.#numberOf(row.run);
        let pos = row.pos_first;
        const end = row.byte_offset + row.byte_length;
        for await (const { events } of readLogRange(handle, row.byte_offset, end, { file, onMalformed: this.#onMalformed })) {
          for (const event of events) {
            if (pos > this.#cursor && pos <= until) {
              this.#cursor = pos;
              yield { ...event, pos, number };
            }
            pos += 1;
          }
        }
        const last = row.pos_first + row.count - 1;
        // A batch committed after `until` was fixed: stop inside it rather than read it again.
        if (last >= until) return;
        this.#cursor = Math.max(this.#cursor, last);
      }
      if (this.#cursor === before) return;
    }
  }

  async close(): Promise<void> {
    for (const handle of this.#logs.values()) await handle.close();
    this.#logs.clear();
  }

  async #log(run: string, file: string): Promise<FileHandle> {
    const open = this.#logs.get(run);
    if (open !== undefined) {
      // Most recently used last: the Map's order is the eviction order.
      this.#logs.delete(run);
      this.#logs.set(run, open);
      return open;
    }
    if (this.#logs.size >= OPEN_LOGS) {
      const [oldest, handle] = this.#logs.entries().next().value as [string, FileHandle];
      this.#logs.delete(oldest);
      await handle.close();
    }
    const handle = await fs.open(file, "r");
    this.#logs.set(run, handle);
    return handle;
  }

  #numberOf(run: string): number {
    let number = this.#numbers.get(run);
    if (number === undefined) {
      number = this.#context.catalog.get(run)?.number ?? 0;
      this.#numbers.set(run, number);
    }
    return number;
  }
}
