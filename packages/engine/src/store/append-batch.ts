import type { Envelope } from "@baton/protocol";

/**
 * A batch caps at about this many bytes: it bounds the memory of one write, the time of one
 * commit, and what a feed reader resuming inside a batch reads to skip its head.
 */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** Lines are encoded into chunks of this size as they are appended (one allocation per ~3,000 events). */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Events appended while the previous batch was being written and synced: they share one
 * `write`, one `fdatasync`, one index transaction and one promise. Each line is encoded to
 * UTF-8 when it is appended, straight into a chunk buffer: encoding the joined batch at
 * commit time costs about twice as much and happens on the commit path.
 */
export class AppendBatch {
  readonly events: Envelope[] = [];
  #chunks: Buffer[] = [];
  #current = Buffer.allocUnsafe(0);
  #used = 0;
  #bytes = 0;
  readonly #done = Promise.withResolvers<void>();

  constructor() {
    // Callers may ignore `durable`; a failure is still surfaced by flush(), close() and the
    // next append, so an unawaited rejection must not crash the process.
    this.#done.promise.catch(() => {});
  }

  get durable(): Promise<void> {
    return this.#done.promise;
  }

  get full(): boolean {
    return this.#bytes >= MAX_BATCH_BYTES;
  }

  add(line: string, event: Envelope): void {
    // A UTF-16 unit is at most 3 UTF-8 bytes: this much room always fits the line and its newline.
    const room = line.length * 3 + 1;
    if (this.#current.byteLength - this.#used < room) {
      if (this.#used > 0) this.#chunks.push(this.#current.subarray(0, this.#used));
      this.#current = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, room));
      this.#used = 0;
    }
    const written = this.#current.write(line, this.#used, "utf8");
    this.#current[this.#used + written] = 0x0a;
    this.#used += written + 1;
    this.#bytes += written + 1;
    this.events.push(event);
  }

  /** The batch's bytes: its lines, each ending with a newline. */
  bytes(): Buffer {
    const last = this.#current.subarray(0, this.#used);
    return this.#chunks.length === 0 ? last : Buffer.concat([...this.#chunks, last], this.#bytes);
  }

  resolve(): void {
    this.#done.resolve();
  }

  reject(error: unknown): void {
    this.#done.reject(error);
  }
}
