import { ChunkedFraming, chunkedLast, HEAD_END, headerFields, keptAlive } from "./http-framing.ts";

/** An upstream answer's status line and headers, and what they say of its body and connection. */
export type AnswerHead = {
  status: number;
  /** The headers as name/value pairs, as they came. */
  rawHeaders: string[];
  /** The body comes in chunks (`transfer-encoding: chunked`): its bytes on the wire are valid chunked framing. */
  chunked: boolean;
};

/** Where an {@link AnswerReader} puts what it reads. */
export type AnswerSink = {
  head(head: AnswerHead): void;
  /**
   * A piece of the body: `wire` is the bytes as they came (for a chunked body its framing too,
   * up to the last chunk, which is never passed), `data` the body's bytes they hold.
   */
  body(wire: Buffer, data: readonly Buffer[]): void;
  /** The answer is complete. */
  end(): void;
};

/** An answer that is not HTTP/1.1 the reader can follow: the connection cannot be used again. */
export class AnswerError extends Error {}

/** The longest head read (status line and headers) before the answer is refused. */
const MAX_HEAD_BYTES = 64 * 1024;
const EMPTY: readonly Buffer[] = [];
const refuse = (message: string) => new AnswerError(message);

type State = "head" | "chunks" | "length" | "close" | "done";

/**
 * Reads one HTTP/1.1 answer from the bytes of its connection as they come, without copying its
 * body: the head parsed (interim 1xx answers skipped), then the body by its framing (RFC 9112
 * §6.3): none (a HEAD request, 204, 304), a length, chunks, or until the connection closes.
 * A chunked body's bytes are handed on as they came, framing included, so that they can be
 * passed on as they are; a chunk-size line split across reads is held until it is whole, and
 * the last chunk and its trailers are read but not handed on.
 */
export class AnswerReader {
  readonly #sink: AnswerSink;
  readonly #bodyless: boolean;
  #state: State = "head";
  readonly #chunks = new ChunkedFraming(refuse);
  /** Bytes of the head, or of a line, not whole yet. */
  #held: Buffer | undefined;
  /** Bytes left of a body of known length. */
  #left = 0;
  #keepAlive = false;
  /** Bytes came after the answer's end: the connection is out of step. */
  #overrun = false;

  constructor(method: string, sink: AnswerSink) {
    this.#bodyless = method === "HEAD";
    this.#sink = sink;
  }

  /** Whether the answer has been read to its end. */
  get done(): boolean {
    return this.#state === "done";
  }

  /** Whether the head has been read. */
  get headRead(): boolean {
    return this.#state !== "head";
  }

  /** Whether the connection can carry another request: the answer is complete, kept alive, and nothing came after it. */
  get reusable(): boolean {
    return this.#state === "done" && this.#keepAlive && !this.#overrun;
  }

  /**
   * Bytes of the connection, in order.
   *
   * @throws AnswerError when they are not an answer the reader can follow.
   */
  push(bytes: Buffer): void {
    let data = bytes;
    if (this.#held !== undefined) {
      data = Buffer.concat([this.#held, bytes]);
      this.#held = undefined;
    }
    let at = 0;
    if (this.#state === "head") {
      at = this.#readHead(data);
      if (at === -1) return;
    }
    switch (this.#state) {
      case "length":
        return this.#readLength(data, at);
      case "close":
        if (at < data.length) this.#sink.body(data.subarray(at), [data.subarray(at)]);
        return;
      case "done":
        if (at < data.length) this.#overrun = true;
        return;
      case "chunks":
        return this.#readChunks(data, at);
    }
  }

  /** The connection ended: a body that runs to the close is complete; anything else is cut (returns false). */
  closed(): boolean {
    if (this.#state === "close") this.#finish();
    return this.#state === "done";
  }

  /** Reads heads from `data` until a final one; returns where its body starts, or -1 when more bytes are needed. */
  #readHead(data: Buffer): number {
    let at = 0;
    for (;;) {
      const end = data.indexOf(HEAD_END, at);
      if (end === -1) {
        if (data.length - at > MAX_HEAD_BYTES) throw new AnswerError(`the answer's head is longer than ${MAX_HEAD_BYTES} bytes`);
        this.#held = at < data.length ? data.subarray(at) : undefined;
        return -1;
      }
      const lines = data.toString("latin1", at, end).split("\r\n");
      at = end + HEAD_END.length;
      const status = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: |$)/.exec(lines[0] ?? "");
      if (status === null) throw new AnswerError(`the answer does not start with an HTTP/1.x status line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`);
      const code = Number(status[2]);
      if (code === 101) throw new AnswerError("the upstream switched protocols, which the proxy never asks for");
      // An interim answer (100 Continue, 103 Early Hints): the final one follows.
      if (code < 200) continue;
      this.#begin(code, status[1] === "1", lines.slice(1));
      return at;
    }
  }

  #begin(status: number, http11: boolean, lines: string[]): void {
    const { rawHeaders, length, codings, connection } = headerFields(lines, refuse);
    const chunked = codings !== undefined && chunkedLast(codings);
    this.#keepAlive = keptAlive(http11, connection);
    this.#sink.head({ status, rawHeaders, chunked });
    if (this.#bodyless || status === 204 || status === 304) this.#finish();
    else if (codings !== undefined) {
      // Chunked last: chunks. Any other coding last: the body runs to the close.
      this.#state = chunked ? "chunks" : "close";
    } else if (length !== undefined) {
      this.#left = length;
      this.#state = "length";
      if (length === 0) this.#finish();
    } else this.#state = "close";
    if (this.#state === "close") this.#keepAlive = false;
  }

  #readLength(data: Buffer, at: number): void {
    const take = Math.min(this.#left, data.length - at);
    if (take > 0) {
      const piece = data.subarray(at, at + take);
      this.#left -= take;
      this.#sink.body(piece, [piece]);
    }
    if (at + take < data.length) this.#overrun = true;
    if (this.#left === 0) this.#finish();
  }

  /** Reads chunk framing from `at`: hands on the bytes read as they came, and the data they hold. */
  #readChunks(data: Buffer, at: number): void {
    const read = this.#chunks.read(data, at);
    this.#held = read.held;
    if (this.#chunks.done && read.end < data.length) this.#overrun = true;
    if (read.passedTo > at || read.pieces.length > 0) this.#sink.body(data.subarray(at, read.passedTo), read.pieces.length === 0 ? EMPTY : read.pieces);
    // The answer's end is announced once the bytes read before it are handed on.
    if (this.#chunks.done) this.#finish();
  }

  #finish(): void {
    this.#state = "done";
    this.#sink.end();
  }
}
