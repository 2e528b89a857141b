import type { RingEntry } from "./ring.ts";
import { PING_FRAME, resyncFrame, RETRY_FRAME, eventFrame } from "./sse-frame.ts";
import type { HubMember, StreamHub } from "./stream-hub.ts";
import type { StreamSource } from "./stream-source.ts";

/** The part of hono's SSE stream a client writes to. */
export type SseSink = {
  write(bytes: Uint8Array): Promise<unknown>;
  close(): Promise<void>;
  onAbort(listener: () => void): void;
  readonly aborted: boolean;
};

export type ClientOptions = {
  sink: SseSink;
  source: StreamSource;
  /** The hub to join once caught up (made on first use, shared with every client of the stream). */
  hub: () => StreamHub;
  after: number;
  heartbeatMs: number;
  /** How long a dropped client's socket may take to take its last bytes before it is destroyed. */
  dropGraceMs: number;
  /** Tears the connection down at once (the socket), for a dropped client that does not read. */
  destroy: () => void;
  onDrop: (after: number) => void;
};

/** Bytes gathered into one write: several events per write, bounded. */
const WRITE_CHUNK_BYTES = 64 * 1024;

/**
 * One SSE connection: `retry`, then the events after its cursor read from the log by itself,
 * then live from the hub's ring, until the stream's final event, the client going away, or a
 * drop. Writes are awaited one at a time (the socket's backpressure), so a slow client holds
 * at most one chunk in flight; the hub's ring bounds how far behind it may fall.
 */
export class StreamClient implements HubMember {
  readonly #options: ClientOptions;
  #cursor: number;
  #index = 0;
  #hub: StreamHub | undefined;
  #done = false;
  #dropped = false;
  #woken = false;
  #pingDue = false;
  #resolveWake: (() => void) | undefined;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#cursor = options.after;
  }

  get nextIndex(): number {
    return this.#index;
  }

  /** Streams until the end; resolves when this connection is finished with. */
  async run(): Promise<void> {
    const { sink, heartbeatMs } = this.#options;
    sink.onAbort(() => {
      this.#done = true;
      this.wake();
    });
    const heartbeat = setInterval(() => {
      this.#pingDue = true;
      this.wake();
    }, heartbeatMs);
    try {
      if (!(await this.#write(RETRY_FRAME))) return;
      if (await this.#catchUp()) return;
      await this.#live();
    } finally {
      clearInterval(heartbeat);
      this.#hub?.leave(this);
      this.#done = true;
    }
  }

  wake(): void {
    this.#woken = true;
    const resolve = this.#resolveWake;
    this.#resolveWake = undefined;
    resolve?.();
  }

  drop(): void {
    if (this.#dropped || this.#done) return;
    this.#dropped = true;
    this.#done = true;
    this.#hub?.leave(this);
    const { sink } = this.#options;
    // Queued behind whatever write is in flight: the client gets every event before `resync`.
    void sink.write(resyncFrame(this.#cursor));
    const closed = sink.close();
    const grace = setTimeout(() => this.#options.destroy(), this.#options.dropGraceMs);
    grace.unref();
    void closed.finally(() => clearTimeout(grace));
    this.#options.onDrop(this.#cursor);
    this.wake();
  }

  /** Reads the log from the cursor until the hub takes the client in; true if the stream ended. */
  async #catchUp(): Promise<boolean> {
    const { source } = this.#options;
    this.#hub = this.#options.hub();
    this.#hub.use(this);
    for (;;) {
      let chunk: Uint8Array[] = [];
      let bytes = 0;
      for await (const event of source.read(this.#cursor)) {
        const cursor = source.cursorOf(event);
        if (cursor === undefined || cursor <= this.#cursor) continue;
        const frame = eventFrame(JSON.stringify(event), cursor);
        chunk.push(frame);
        bytes += frame.byteLength;
        this.#cursor = cursor;
        const final = source.isFinal(event);
        if (bytes >= WRITE_CHUNK_BYTES || final) {
          if (!(await this.#write(concat(chunk))) || final) return true;
          chunk = [];
          bytes = 0;
        }
      }
      if (chunk.length > 0 && !(await this.#write(concat(chunk)))) return true;
      if (this.#done) return true;
      const index = this.#hub.join(this, this.#cursor);
      if (index !== undefined) {
        this.#index = index;
        return false;
      }
    }
  }

  async #live(): Promise<void> {
    const hub = this.#hub as StreamHub;
    const { ring } = hub;
    for (;;) {
      if (this.#done) return;
      if (this.#index < ring.firstIndex) {
        this.drop();
        return;
      }
      const chunk: Uint8Array[] = [];
      let bytes = 0;
      let cursor = this.#cursor;
      let final = false;
      for (let entry = ring.at(this.#index); entry !== undefined && bytes < WRITE_CHUNK_BYTES; entry = ring.at(this.#index)) {
        this.#index += 1;
        if (!isNewFor(entry, cursor)) continue;
        chunk.push(entry.frame);
        bytes += entry.frame.byteLength;
        if (entry.cursor !== undefined) cursor = entry.cursor;
        if (entry.final) {
          final = true;
          break;
        }
      }
      // Handed to the stream = sent: a `resync` queued behind this write must name its last event.
      this.#cursor = cursor;
      if (chunk.length > 0) {
        this.#pingDue = false;
        if (!(await this.#write(concat(chunk))) || final) return;
        continue;
      }
      if (hub.finalCursor !== undefined && this.#cursor >= hub.finalCursor) return;
      if (hub.closed) return;
      if (this.#pingDue) {
        this.#pingDue = false;
        if (!(await this.#write(PING_FRAME))) return;
        continue;
      }
      await this.#waitForWake();
    }
  }

  /** Writes unless the client is gone or dropped; false when the stream is over. */
  async #write(bytes: Uint8Array): Promise<boolean> {
    if (this.#done || this.#options.sink.aborted) return false;
    await this.#options.sink.write(bytes);
    return !this.#done && !this.#options.sink.aborted;
  }

  #waitForWake(): Promise<void> {
    if (this.#woken || this.#done) {
      this.#woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#resolveWake = () => {
        this.#woken = false;
        resolve();
      };
    });
  }
}

/** A ring entry this client has not had: a durable event past its cursor, or an ephemeral one not older than it. */
function isNewFor(entry: RingEntry, cursor: number): boolean {
  return entry.cursor === undefined ? entry.key > cursor : entry.cursor > cursor;
}

function concat(frames: Uint8Array[]): Uint8Array {
  return frames.length === 1 ? (frames[0] as Uint8Array) : Buffer.concat(frames);
}
