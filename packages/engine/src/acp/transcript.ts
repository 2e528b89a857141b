import fs, { createWriteStream, type WriteStream } from "node:fs";
import type { Redactor } from "../redaction/redactor.ts";
import { asObject } from "./json-access.ts";
import type { Direction } from "./tap.ts";

/**
 * One record of `acp.jsonl`: every raw ACP line in either direction, in wire order.
 * `i` counts from 1; `at` is when Baton saw the line; `msg` is the parsed JSON-RPC message, or
 * `raw` holds the text of a line that was not JSON. Secrets are redacted before writing.
 */
export type TranscriptRecord = {
  i: number;
  at: string;
  dir: Direction;
  msg?: unknown;
  raw?: string;
};

/** Records gathered before they are written: one write for many records, the way group commit does for events. */
const FLUSH_BYTES = 64 * 1024;
/**
 * How long records gather at most. A tool call's permission round trip is a few records a
 * millisecond or two apart: written as each stretch of work ends, a run of 1,000 calls made
 * thousands of small writes; gathered for this long, a few hundred.
 */
const FLUSH_AFTER_MS = 25;

/**
 * Appends the ACP transcript of a run. Buffered: it is a trace, not the source of truth, so a
 * failure to write it (a full disk) never fails the run; `close()` reports it. Records are
 * gathered and written together, 25 ms after the first of them or once 64 KiB have gathered,
 * and when the transcript is closed.
 */
export class AcpTranscript {
  readonly #path: string;
  readonly #stream: WriteStream;
  readonly #redactor: Redactor;
  readonly #now: () => Date;
  #count = 0;
  #error: Error | undefined;
  /** Bytes of whole records written: where the file is cut back to if a write fails midway. */
  #written: number;
  /** Records not written yet, and their length in UTF-16 units (a lower bound of their bytes). */
  #pending: string[] = [];
  #pendingLength = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  #lastStampMs = Number.NaN;
  #lastStamp = "";

  constructor(path: string, redactor: Redactor, now: () => Date) {
    this.#path = path;
    this.#written = sizeOf(path);
    this.#stream = createWriteStream(path, { flags: "a" });
    this.#stream.on("error", (error) => (this.#error ??= error));
    this.#redactor = redactor;
    this.#now = now;
  }

  /** Records a raw line and returns its parsed (redacted) message, or undefined if not JSON. */
  record(dir: Direction, line: string): unknown {
    this.#count += 1;
    const text = this.#redactor.redactText(line);
    const head = `{"i":${this.#count},"at":"${this.#timestamp()}","dir":"${dir}"`;
    let message: unknown;
    let record: string;
    try {
      message = JSON.parse(text);
      const kept = this.#withoutSecretPieces(message);
      // The line is JSON already: kept as it came (one line, the secrets it had replaced), not
      // serialized again, unless scrubbing pieces of a secret changed it.
      record = kept === message ? `${head},"msg":${text.trim()}}` : `${head},"msg":${JSON.stringify(kept)}}`;
    } catch {
      record = `${head},"raw":${JSON.stringify(text)}}`;
    }
    if (this.#error === undefined) this.#add(`${record}\n`);
    return message;
  }

  /** `now()` as RFC 3339, formatted once per millisecond. */
  #timestamp(): string {
    const now = this.#now();
    const ms = now.getTime();
    if (ms !== this.#lastStampMs) {
      this.#lastStampMs = ms;
      this.#lastStamp = now.toISOString();
    }
    return this.#lastStamp;
  }

  #add(record: string): void {
    this.#pending.push(record);
    this.#pendingLength += record.length;
    if (this.#pendingLength >= FLUSH_BYTES) this.#flush();
    else this.#flushTimer ??= setTimeout(() => this.#flush(), FLUSH_AFTER_MS);
  }

  #flush(): void {
    clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    if (this.#pending.length === 0) return;
    const bytes = Buffer.from(this.#pending.join(""));
    this.#pending = [];
    this.#pendingLength = 0;
    if (this.#error !== undefined) return;
    this.#stream.write(bytes, (error) => {
      if (!error) this.#written += bytes.byteLength;
    });
  }

  /**
   * Streamed text arrives in chunks, one record each, so a secret split across two chunks is
   * in no single record whole. Chunk text is scrubbed of secret pieces at its ends (the events
   * are built from the joined text, which is redacted whole, so they keep every character).
   */
  #withoutSecretPieces(message: unknown): unknown {
    if (!this.#redactor.active) return message;
    const params = asObject(asObject(message)?.["params"]);
    const update = asObject(params?.["update"]);
    const content = asObject(update?.["content"]);
    const kind = update?.["sessionUpdate"];
    const text = content?.["text"];
    if ((kind !== "agent_message_chunk" && kind !== "agent_thought_chunk") || typeof text !== "string") return message;
    const scrubbed = this.#redactor.redactPieces(text);
    if (scrubbed === text) return message;
    return { ...asObject(message), params: { ...params, update: { ...update, content: { ...content, text: scrubbed } } } };
  }

  /**
   * Flushes and closes the file. Resolves with the write error if there was one; the file then
   * ends with its last whole record (a disk that filled midway leaves no torn line).
   */
  async close(): Promise<Error | undefined> {
    this.#flush();
    await new Promise<void>((resolve) => this.#stream.end(() => resolve()));
    if (this.#error === undefined) return undefined;
    try {
      fs.truncateSync(this.#path, this.#written);
    } catch {
      // The file cannot be cut (gone, read-only): it is a trace, its last record stays torn.
    }
    return this.#error;
  }
}

function sizeOf(path: string): number {
  try {
    return fs.statSync(path).size;
  } catch {
    return 0;
  }
}
