import { visibleText } from "@baton/protocol/core";
import type { RingEntry } from "./ring.ts";
import { PING_FRAME, resyncFrame, RETRY_FRAME, eventFrame } from "./sse-frame.ts";
import type { SseSink } from "./sse-sink.ts";
import type { HubMember, StreamHub } from "./stream-hub.ts";
import type { StreamSource } from "./stream-source.ts";

export type ClientOptions = {
  sink: SseSink;
  source: StreamSource;
  /** The hub to join once caught up (made on first use, shared with every client of the stream). */
  hub: () => StreamHub;
  after: number;
  heartbeatMs: number;
  /** How long a dropped client's socket may take to take its last bytes before it is destroyed. */
  dropGraceMs: number;
  onDrop: (after: number) => void;
  /** A dropped client that did not take its last bytes in time was disconnected. */
  onCutOff: () => void;
};

/** Bytes gathered into one write while catching up from the log: several events per write, bounded. */
const WRITE_CHUNK_BYTES = 64 * 1024;

/**
 * One SSE connection: `retry`, then the events after its cursor read from the log by itself,
 * then live from the hub's ring, until the stream's final event, the client going away, or a
 * drop. Live, the client is a pump the hub wakes once per batch of new events: it hands the
 * connection every frame it has not had, as views of the hub's slabs (no copy, no promise, no
 * work per event), until the connection's buffer passes its high-water mark, then waits for
 * `drain`. A slow
 * client thus holds about one high-water mark in flight; the hub's ring bounds how far
 * behind it may fall before it is sent `resync` and disconnected.
 */
export class StreamClient implements HubMember {
  readonly #options: ClientOptions;
  #cursor: number;
  #index = 0;
  #hub: StreamHub | undefined;
  #live = false;
  #blocked = false;
  #done = false;
  #pingDue = false;
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#cursor = options.after;
  }

  get nextIndex(): number {
    return this.#index;
  }

  /** Starts streaming; the connection then runs by itself until the end of the stream or of the connection. */
  start(): void {
    const { sink, heartbeatMs } = this.#options;
    sink.onClose(() => this.#stop());
    this.#heartbeat = setInterval(() => {
      this.#pingDue = true;
      this.wake();
    }, heartbeatMs);
    sink.write(RETRY_FRAME);
    void this.#catchUp().then(
      (joined) => {
        if (!joined) return this.#end();
        this.#live = true;
        this.#pump();
      },
      (error: unknown) => {
        console.error(`baton serve: a stream failed to read its log (the client reconnects): ${visibleText(error instanceof Error ? error.message : String(error))}`);
        this.#end();
      },
    );
  }

  wake(): void {
    if (this.#live) this.#pump();
  }

  drop(): void {
    if (this.#done) return;
    const { sink, dropGraceMs } = this.#options;
    // Behind what is queued: the client gets every event it was handed, then `resync` naming the last.
    sink.write(resyncFrame(this.#cursor));
    this.#end();
    if (!sink.closed) {
      const grace = setTimeout(() => {
        sink.destroy();
        this.#options.onCutOff();
      }, dropGraceMs);
      grace.unref();
      sink.onClose(() => clearTimeout(grace));
    }
    this.#options.onDrop(this.#cursor);
  }

  /** Reads the log from the cursor until the hub takes the client in; false if the stream is over first. */
  async #catchUp(): Promise<boolean> {
    const { source } = this.#options;
    this.#hub = this.#options.hub();
    this.#hub.use(this);
    for (;;) {
      let frames: Uint8Array[] = [];
      let bytes = 0;
      for await (const event of source.read(this.#cursor)) {
        if (this.#done) return false;
        const cursor = source.cursorOf(event);
        if (cursor === undefined || cursor <= this.#cursor) continue;
        const frame = eventFrame(JSON.stringify(event), cursor);
        frames.push(frame);
        bytes += frame.byteLength;
        this.#cursor = cursor;
        const final = source.isFinal(event);
        if (bytes >= WRITE_CHUNK_BYTES || final) {
          await this.#send(Buffer.concat(frames));
          if (final) return false;
          frames = [];
          bytes = 0;
        }
      }
      if (frames.length > 0) await this.#send(Buffer.concat(frames));
      if (this.#done) return false;
      const index = this.#hub.join(this, this.#cursor);
      if (index !== undefined) {
        this.#index = index;
        return true;
      }
    }
  }

  /** Writes, then waits for the connection to take more if it asked to. */
  async #send(bytes: Uint8Array): Promise<void> {
    const { sink } = this.#options;
    if (this.#done || sink.write(bytes)) return;
    await new Promise<void>((resolve) => sink.onDrain(resolve));
  }

  /**
   * Hands the connection what the ring holds for this client, a span (adjacent frames of one
   * slab) per write, until the connection pushes back or nothing is left. An entry is new to
   * the client when its key is past the client's cursor; the ring's keys never decrease, so
   * once the next entry is new, every later one is, and a span is written whole.
   */
  #pump(): void {
    const hub = this.#hub as StreamHub;
    const { ring } = hub;
    const { sink } = this.#options;
    while (!this.#done && !this.#blocked) {
      if (this.#index < ring.firstIndex) return this.drop();
      let more: boolean;
      const next = ring.at(this.#index);
      if (next !== undefined && next.key <= this.#cursor) {
        // The client read the log further than the hub's follower had when it joined: skip what
        // it has had. Keys never decrease, so that is a prefix, and where it ends a search away.
        this.#index = ring.indexAfter(this.#cursor);
        continue;
      }
      if (next !== undefined) {
        const first = this.#index;
        const last = ring.spanEnd(first);
        const entry = ring.at(last) as RingEntry;
        this.#index = last + 1;
        // Handed to the connection = sent: a `resync` queued behind these frames must name their last event.
        this.#cursor = Math.max(this.#cursor, entry.cursor ?? Math.floor(entry.key));
        this.#pingDue = false;
        more = sink.write(ring.bytesOf(first, last));
        if (entry.final) return this.#end();
      } else {
        if ((hub.finalCursor !== undefined && this.#cursor >= hub.finalCursor) || hub.closed) return this.#end();
        if (!this.#pingDue) return;
        this.#pingDue = false;
        more = sink.write(PING_FRAME);
      }
      if (!more) {
        this.#blocked = true;
        sink.onDrain(() => {
          this.#blocked = false;
          this.#pump();
        });
      }
    }
  }

  /** The stream is over: the response ends after what is queued. */
  #end(): void {
    this.#stop();
    this.#options.sink.end();
  }

  /** Stops for good (ended, dropped, or the connection is gone); leaves the hub. */
  #stop(): void {
    if (this.#done) return;
    this.#done = true;
    clearInterval(this.#heartbeat);
    this.#hub?.leave(this);
  }
}
