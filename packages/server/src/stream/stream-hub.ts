import { visibleText, type Envelope } from "@baton/protocol/core";
import { EventRing, type RingEntry } from "./ring.ts";
import { FramePacker } from "./sse-frame.ts";
import type { StreamSource } from "./stream-source.ts";

/** What a hub needs of a connected client. */
export type HubMember = {
  /** Absolute ring index of the next entry this client will write. */
  readonly nextIndex: number;
  /** Something new may be in the ring (or the hub ended or failed). */
  wake(): void;
  /** The client fell behind the ring: send it `resync` and disconnect it. */
  drop(): void;
};

export type HubLimits = {
  /** Most recent events a hub keeps for its clients: how far one may lag before it is resynced. */
  ringEvents: number;
  /** The same bound in bytes of encoded frames. */
  ringBytes: number;
};

/** Ephemeral events waiting for the durable event before them; a bound (they are lossy by nature). */
const MAX_PENDING_EPHEMERAL = 4096;

/**
 * One live follower of a run (or of the feed) shared by all its clients. A client catches up
 * from the log by itself (`StreamSource.read`), then joins at its cursor: the hub's ring
 * holds the most recent events, already encoded, and the hub's single follower appends to
 * it. A client writes from the ring at its own pace; one that lags beyond the ring is dropped
 * with `resync` and resumes from its cursor, so memory is the ring's, whatever the clients do.
 *
 * The follower starts at the cursor of the first client to join (it has read the log up to
 * there), so the hub never reads what its clients already read.
 */
export class StreamHub {
  readonly #source: StreamSource;
  readonly #ring: EventRing;
  /** Every frame of the ring, encoded once into shared slabs: clients write views of them. */
  readonly #packer = new FramePacker();
  readonly #members = new Set<HubMember>();
  readonly #users = new Set<unknown>();
  readonly #abort = new AbortController();
  readonly #onIdle: () => void;
  readonly #onFollowerStart: () => void;
  readonly #pendingEphemeral: Array<{ after: number; event: Envelope }> = [];
  #unsubscribeEphemeral: (() => void) | undefined;
  #started = false;
  /** Every durable event with cursor > floor is in the ring or not read yet. */
  #floor = 0;
  /** Cursor of the last durable event appended. */
  #frontier = 0;
  #finalCursor: number | undefined;
  #failed: Error | undefined;
  #notifyScheduled = false;

  constructor(source: StreamSource, limits: HubLimits, hooks: { onIdle: () => void; onFollowerStart: () => void }) {
    this.#source = source;
    this.#ring = new EventRing(limits.ringEvents, limits.ringBytes);
    this.#onIdle = hooks.onIdle;
    this.#onFollowerStart = hooks.onFollowerStart;
  }

  get ring(): EventRing {
    return this.#ring;
  }

  /** Cursor of the stream's final event once the hub has read it. */
  get finalCursor(): number | undefined {
    return this.#finalCursor;
  }

  get failed(): Error | undefined {
    return this.#failed;
  }

  /** Clients writing from the ring now. */
  get memberCount(): number {
    return this.#members.size;
  }

  /** A client (catching up or joined) keeps the hub alive until it leaves. */
  use(user: unknown): void {
    this.#users.add(user);
  }

  /**
   * Joins a client that has every event up to `cursor`: returns the ring index to write from,
   * or undefined when the events right after `cursor` are no longer (or not yet) in the ring,
   * and the client must read more of the log first.
   */
  join(member: HubMember, cursor: number): number | undefined {
    if (!this.#started) this.#start(cursor);
    if (cursor < this.#floor) return undefined;
    this.#members.add(member);
    return this.#ring.indexAfter(cursor);
  }

  /** A client leaves (ended, dropped or disconnected); the last one stops the follower. */
  leave(member: HubMember): void {
    this.#members.delete(member);
    this.#users.delete(member);
    if (this.#users.size === 0) this.close();
  }

  /** True once the hub stopped (last client gone, shutdown, or its follower failed): clients end their streams. */
  get closed(): boolean {
    return this.#abort.signal.aborted;
  }

  close(): void {
    if (this.#abort.signal.aborted) return;
    this.#abort.abort();
    this.#unsubscribeEphemeral?.();
    this.#onIdle();
    this.#scheduleNotify();
  }

  #start(after: number): void {
    this.#started = true;
    this.#floor = after;
    this.#frontier = after;
    this.#unsubscribeEphemeral = this.#source.subscribeEphemeral?.((event, afterCursor) => this.#onEphemeral(event, afterCursor));
    this.#onFollowerStart();
    void this.#follow(after);
  }

  async #follow(after: number): Promise<void> {
    const signal = this.#abort.signal;
    try {
      for await (const event of this.#source.follow(after, signal)) {
        const cursor = this.#source.cursorOf(event);
        if (cursor === undefined || cursor <= this.#frontier) continue;
        const final = this.#source.isFinal(event);
        this.#append({ cursor, key: cursor, frame: this.#packer.frame(JSON.stringify(event), cursor), final });
        this.#frontier = cursor;
        this.#releaseEphemeral();
        if (final) this.#finalCursor = cursor;
      }
      // A run's follow also ends when the run turns out to have ended before the hub's start.
      if (!signal.aborted) this.#finalCursor ??= this.#frontier;
    } catch (error) {
      if (!signal.aborted) {
        this.#failed = error instanceof Error ? error : new Error(String(error));
        console.error(`baton serve: a stream follower failed (its clients reconnect): ${visibleText(this.#failed.message)}`);
        this.close();
      }
    } finally {
      this.#scheduleNotify();
    }
  }

  #onEphemeral(event: Envelope, afterCursor: number): void {
    if (afterCursor === this.#frontier) {
      this.#append({ cursor: undefined, key: afterCursor + 0.5, frame: this.#packer.frame(JSON.stringify(event), undefined), final: false });
      return;
    }
    // The follower already read past the event's durable predecessor (a delta from another
    // process that arrived late): shown now it would land after the message that ended its
    // stream. Deltas are best-effort: drop it.
    if (afterCursor < this.#frontier) return;
    // Its durable predecessor is committed but the follower has not read it yet: keep the order.
    if (this.#pendingEphemeral.length >= MAX_PENDING_EPHEMERAL) this.#pendingEphemeral.shift();
    this.#pendingEphemeral.push({ after: afterCursor, event });
  }

  #releaseEphemeral(): void {
    while (this.#pendingEphemeral[0] !== undefined && this.#pendingEphemeral[0].after <= this.#frontier) {
      const { after, event } = this.#pendingEphemeral.shift() as { after: number; event: Envelope };
      this.#append({ cursor: undefined, key: after + 0.5, frame: this.#packer.frame(JSON.stringify(event), undefined), final: false });
    }
  }

  #append(entry: RingEntry): void {
    for (const evicted of this.#ring.push(entry)) {
      if (evicted.cursor !== undefined) this.#floor = evicted.cursor;
    }
    this.#scheduleNotify();
  }

  /**
   * Wakes the clients once per turn of the event loop, not once per event: the follower reads
   * a whole chunk of the log at a time, and a client then hands all of it to its connection
   * at once (adjacent frames of a slab as one view).
   */
  #scheduleNotify(): void {
    if (this.#notifyScheduled) return;
    this.#notifyScheduled = true;
    setImmediate(() => {
      this.#notifyScheduled = false;
      const first = this.#ring.firstIndex;
      for (const member of [...this.#members]) {
        if (member.nextIndex < first) member.drop();
        else member.wake();
      }
    });
  }
}
