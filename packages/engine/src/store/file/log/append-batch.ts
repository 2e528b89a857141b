import type { Envelope } from "@baton/protocol/core";
import { digitCount } from "./envelope-line.ts";

/**
 * A batch caps at about this many bytes: it bounds the memory of one write, the time of one
 * commit, and what a feed reader resuming inside a batch reads to skip its head.
 */
export const MAX_BATCH_BYTES = 4 * 1024 * 1024;

/** The buffer of a writer's first batch; later batches reuse it, grown to what they needed. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/** Texts up to this length reserve 3 bytes per UTF-16 unit; longer ones are measured exactly. */
const ESTIMATED_LINE_CHARS = 16 * 1024;

const NEWLINE = 0x0a;
const CLOSE_BRACE = 0x7d;

/**
 * Events appended while the previous batch was being written and synced: they share one
 * `write`, one `fdatasync`, one index transaction and one promise. Each line is encoded to
 * UTF-8 when it is appended, straight into the batch's one buffer, which the batch's `write`
 * takes whole (no concatenation). The writer hands a committed batch's buffer to the next
 * batch: memory the process has already touched, so a burst of appends does not pay for
 * fresh pages (measured: page faults on new buffers cost more than the encoding itself).
 */
export class AppendBatch {
  readonly events: Envelope[] = [];
  #buffer: Buffer;
  #used = 0;
  readonly #done = Promise.withResolvers<void>();

  /** `buffer`: a previous batch's buffer to write into (its content is overwritten). */
  constructor(buffer: Buffer = Buffer.allocUnsafe(FIRST_BUFFER_BYTES)) {
    this.#buffer = buffer;
    // Callers may ignore `durable`; a failure is still surfaced by flush(), close() and the
    // next append, so an unawaited rejection must not crash the process.
    this.#done.promise.catch(() => {});
  }

  get durable(): Promise<void> {
    return this.#done.promise;
  }

  get full(): boolean {
    return this.#used >= MAX_BATCH_BYTES;
  }

  /** Adds a whole line (the writer's path for a line over the cap). */
  add(line: string, event: Envelope): void {
    this.#reserve(this.#textRoom(line) + 1);
    const written = this.#buffer.write(line, this.#used, "utf8");
    this.#buffer[this.#used + written] = NEWLINE;
    this.#used += written + 1;
    this.events.push(event);
  }

  /**
   * Adds the line `<head><seq><at><type><json>}` from its parts (see EnvelopeLines): the
   * fixed parts are copied as bytes, the seq written as digits, and only `json` is encoded,
   * so no line string is built for the event.
   */
  addEnvelope(head: Uint8Array, seq: number, at: Uint8Array, type: Uint8Array, json: string, event: Envelope): void {
    const digits = digitCount(seq);
    this.#reserve(head.byteLength + digits + at.byteLength + type.byteLength + this.#textRoom(json) + 2);
    const buffer = this.#buffer;
    let offset = this.#used;
    buffer.set(head, offset);
    offset += head.byteLength + digits;
    for (let rest = seq, index = offset - 1; index >= offset - digits; index -= 1, rest = Math.floor(rest / 10)) buffer[index] = 0x30 + (rest % 10);
    buffer.set(at, offset);
    offset += at.byteLength;
    buffer.set(type, offset);
    offset += type.byteLength;
    offset += buffer.write(json, offset, "utf8");
    buffer[offset] = CLOSE_BRACE;
    buffer[offset + 1] = NEWLINE;
    this.#used = offset + 2;
    this.events.push(event);
  }

  /** The batch's bytes: its lines, each ending with a newline. Valid until `releaseBuffer`. */
  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#used);
  }

  /** Gives up the buffer (for the next batch) once its bytes are written: the batch is done with it. */
  releaseBuffer(): Buffer {
    const buffer = this.#buffer;
    this.#buffer = Buffer.alloc(0);
    this.#used = 0;
    return buffer;
  }

  resolve(): void {
    this.#done.resolve();
  }

  reject(error: unknown): void {
    this.#done.reject(error);
  }

  /** UTF-8 bytes enough for `text`: 3 per UTF-16 unit (the most one takes), exact for long texts. */
  #textRoom(text: string): number {
    return text.length <= ESTIMATED_LINE_CHARS ? text.length * 3 : Buffer.byteLength(text);
  }

  #reserve(room: number): void {
    if (this.#buffer.byteLength - this.#used >= room) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.byteLength * 2, this.#used + room));
    this.#buffer.copy(grown, 0, 0, this.#used);
    this.#buffer = grown;
  }
}
