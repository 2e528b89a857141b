/** One event of a hub, as every client of it writes it. */
export type RingEntry = {
  /** Seq (run) or pos (feed) of a durable event; undefined for an ephemeral one. */
  cursor: number | undefined;
  /**
   * Order key: the cursor of a durable event, or the cursor an ephemeral event follows + 0.5.
   * Non-decreasing along the ring, so a client's cursor finds its place by binary search.
   */
  key: number;
  frame: Uint8Array;
  final: boolean;
};

/**
 * The bounded window of a hub's most recent events, addressed by absolute index (0, 1, 2, …
 * since the hub started). Old entries are evicted past `maxEntries` or `maxBytes`; a client
 * whose next index was evicted has fallen too far behind and is resynced.
 */
export class EventRing {
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #entries: RingEntry[] = [];
  #head = 0;
  #firstIndex = 0;
  #bytes = 0;

  constructor(maxEntries: number, maxBytes: number) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /** Absolute index of the oldest entry kept. */
  get firstIndex(): number {
    return this.#firstIndex;
  }

  /** Absolute index the next entry will get. */
  get nextIndex(): number {
    return this.#firstIndex + this.#entries.length - this.#head;
  }

  get bytes(): number {
    return this.#bytes;
  }

  at(index: number): RingEntry | undefined {
    if (index < this.#firstIndex) return undefined;
    return this.#entries[this.#head + index - this.#firstIndex];
  }

  /** Adds an entry; returns the evicted ones (oldest first) that made room for it. */
  push(entry: RingEntry): RingEntry[] {
    this.#entries.push(entry);
    this.#bytes += entry.frame.byteLength;
    const evicted: RingEntry[] = [];
    while (this.nextIndex - this.#firstIndex > this.#maxEntries || (this.#bytes > this.#maxBytes && this.nextIndex - this.#firstIndex > 1)) {
      const old = this.#entries[this.#head] as RingEntry;
      this.#entries[this.#head] = undefined as unknown as RingEntry;
      this.#head += 1;
      this.#firstIndex += 1;
      this.#bytes -= old.frame.byteLength;
      evicted.push(old);
    }
    // Compact now and then: the array's dead head is dropped in one copy, amortized O(1).
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
    return evicted;
  }

  /** Absolute index of the first entry whose key is greater than `key` (nextIndex if none). */
  indexAfter(key: number): number {
    let low = this.#head;
    let high = this.#entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.#entries[middle] as RingEntry).key > key) high = middle;
      else low = middle + 1;
    }
    return this.#firstIndex + low - this.#head;
  }
}
