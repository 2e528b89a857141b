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

/**
 * Appends the ACP transcript of a run. Buffered: it is a trace, not the source of truth, so a
 * failure to write it (a full disk) never fails the run; `close()` reports it.
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
    const record: TranscriptRecord = { i: this.#count, at: this.#now().toISOString(), dir };
    let message: unknown;
    try {
      message = JSON.parse(text);
      record.msg = this.#withoutSecretPieces(message);
    } catch {
      record.raw = text;
    }
    if (this.#error === undefined) {
      const bytes = Buffer.from(`${JSON.stringify(record)}\n`);
      this.#stream.write(bytes, (error) => {
        if (!error) this.#written += bytes.byteLength;
      });
    }
    return message;
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
