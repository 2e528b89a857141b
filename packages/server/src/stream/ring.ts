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

/** Entries whose frames are adjacent bytes of one buffer: a client writes them as one view. */
type Span = { last: number };

type Slot = RingEntry & { span: Span };

/**
 * The bounded window of a hub's most recent events, addressed by absolute index (0, 1, 2, …
 * since the hub started). Old entries are evicted past `maxEntries` or `maxBytes`; a client
 * whose next index was evicted has fallen too far behind and is resynced.
 *
 * Consecutive entries whose frames are adjacent in one buffer (a `FramePacker`'s slab) form a
 * span, which a client hands to its connection as a single view ({@link EventRing.spanEnd},
 * {@link EventRing.bytesOf}) instead of one entry at a time. A final entry ends its span.
 */
export class EventRing {
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #entries: Slot[] = [];
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

  /** Index of the last entry of the span that holds `index` (an entry kept now). */
  spanEnd(index: number): number {
    return (this.#entries[this.#head + index - this.#firstIndex] as Slot).span.last;
  }

  /** The frames of entries `first` … `last` (one span, kept now) as one view of their buffer. */
  bytesOf(first: number, last: number): Uint8Array {
    const start = (this.#entries[this.#head + first - this.#firstIndex] as Slot).frame;
    const end = (this.#entries[this.#head + last - this.#firstIndex] as Slot).frame;
    if (first === last) return start;
    return new Uint8Array(start.buffer, start.byteOffset, end.byteOffset + end.byteLength - start.byteOffset);
  }

  /** Adds an entry; returns the evicted ones (oldest first) that made room for it. */
  push(entry: RingEntry): RingEntry[] {
    const index = this.nextIndex;
    const previous = this.#entries.at(-1);
    const adjacent = previous !== undefined && this.#entries.length > this.#head && !previous.final && previous.frame.buffer === entry.frame.buffer && previous.frame.byteOffset + previous.frame.byteLength === entry.frame.byteOffset;
    const span = adjacent ? previous.span : { last: index };
    span.last = index;
    this.#entries.push({ ...entry, span });
    this.#bytes += entry.frame.byteLength;
    const evicted: RingEntry[] = [];
    while (this.nextIndex - this.#firstIndex > this.#maxEntries || (this.#bytes > this.#maxBytes && this.nextIndex - this.#firstIndex > 1)) {
      const old = this.#entries[this.#head] as Slot;
      this.#entries[this.#head] = undefined as unknown as Slot;
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
      if ((this.#entries[middle] as Slot).key > key) high = middle;
      else low = middle + 1;
    }
    return this.#firstIndex + low - this.#head;
  }
}
