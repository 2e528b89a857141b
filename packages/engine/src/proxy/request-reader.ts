import { ChunkedFraming, chunkedLast, HEAD_END, headerFields, keptAlive, TOKEN } from "./http-framing.ts";

/** One request of an agent, read whole. */
export type AgentRequest = {
  method: string;
  /** The request target as it came: a path, with its query. */
  url: string;
  /** HTTP/1.1, or else 1.0. */
  http11: boolean;
  /** The headers as name/value pairs, as they came. */
  rawHeaders: string[];
  /** The body, its chunk framing taken off when it came in chunks. */
  body: Buffer;
  /** Whether the agent keeps the connection for another request after the answer. */
  keepAlive: boolean;
};

/** A request the proxy cannot read: answered with `status`, and its connection closed. */
export class RequestError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The longest head read (request line and headers), as node:http's default. */
export const MAX_HEAD_BYTES = 16 * 1024;
const REQUEST_LINE = /^([^ ]+) ([^ ]+) HTTP\/(\d)\.(\d)$/;
/** An origin-form target: a path and a query of visible characters. */
const ORIGIN_FORM = /^\/[\x21-\x7e\x80-\xff]*$/;
const bad = (message: string) => new RequestError(400, message);

type Reading = { head: Omit<AgentRequest, "body">; length: number | undefined; chunks: ChunkedFraming | undefined; body: Buffer[]; size: number };

/**
 * Reads an agent's requests from the bytes of its connection as they come (RFC 9112): the
 * request line and headers, then the body by its length or its chunks. Requests that follow
 * one another on the connection (pipelined) are read one at a time, as the caller asks.
 * Refuses, each with its status: a head too long (431), a line that is not HTTP/1.x (400),
 * a version it does not speak (505), a length and chunks together (400), a coding other than
 * chunked (501), an expectation other than 100-continue (417), a body larger than the limit
 * (413).
 */
export class RequestReader {
  readonly #maxBodyBytes: number;
  readonly #onContinue: () => void;
  /** Bytes come and not read yet. */
  #held: Buffer | undefined;
  /** The request whose head has been read, while its body is. */
  #reading: Reading | undefined;

  /** `onContinue`: the agent waits for a 100 Continue before it sends the body. */
  constructor(maxBodyBytes: number, onContinue: () => void) {
    this.#maxBodyBytes = maxBodyBytes;
    this.#onContinue = onContinue;
  }

  /** How many bytes are held, read from the connection and not yet part of a request given out. */
  get holding(): number {
    return (this.#held?.length ?? 0) + (this.#reading?.size ?? 0);
  }

  /** Whether part of a request has come: a head begun, or a body. */
  get begun(): boolean {
    return this.#held !== undefined || this.#reading !== undefined;
  }

  /** Bytes of the connection, in order: read by {@link next}. */
  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.#held = this.#held === undefined ? bytes : Buffer.concat([this.#held, bytes]);
  }

  /**
   * The next request whose bytes have all come, or undefined until they have.
   *
   * @throws RequestError when they are not a request the proxy can read: the connection is
   *   out of step from there, and is closed.
   */
  next(): AgentRequest | undefined {
    let data = this.#held;
    if (data === undefined) return undefined;
    this.#held = undefined;
    let at = 0;
    if (this.#reading === undefined) {
      // Empty lines before a request line are skipped (RFC 9112 §2.2).
      while (data.length - at >= 2 && data[at] === 13 && data[at + 1] === 10) at += 2;
      const end = data.indexOf(HEAD_END, at);
      if (end === -1 || end - at > MAX_HEAD_BYTES) {
        if (data.length - at > MAX_HEAD_BYTES) throw new RequestError(431, `the request's head is longer than ${MAX_HEAD_BYTES} bytes`);
        this.#held = at < data.length ? data.subarray(at) : undefined;
        return undefined;
      }
      this.#reading = this.#head(data.toString("latin1", at, end));
      at = end + HEAD_END.length;
    }
    const reading = this.#reading;
    let rest: Buffer | undefined;
    if (reading.chunks !== undefined) {
      const read = reading.chunks.read(data, at);
      for (const piece of read.pieces) this.#add(reading, piece);
      if (!reading.chunks.done) {
        this.#held = read.held;
        return undefined;
      }
      rest = read.end < data.length ? data.subarray(read.end) : undefined;
    } else {
      const left = (reading.length ?? 0) - reading.size;
      const take = Math.min(left, data.length - at);
      if (take > 0) this.#add(reading, data.subarray(at, at + take));
      if (take < left) return undefined;
      rest = at + take < data.length ? data.subarray(at + take) : undefined;
    }
    this.#reading = undefined;
    this.#held = rest;
    const body = reading.body.length === 1 ? (reading.body[0] as Buffer) : Buffer.concat(reading.body, reading.size);
    return { ...reading.head, body };
  }

  #add(reading: Reading, piece: Buffer): void {
    reading.size += piece.length;
    if (reading.size > this.#maxBodyBytes) throw new RequestError(413, `the request's body is larger than ${this.#maxBodyBytes} bytes`);
    reading.body.push(piece);
  }

  #head(text: string): Reading {
    const lines = text.split("\r\n");
    const line = REQUEST_LINE.exec(lines[0] ?? "");
    if (line === null) throw bad(`the request does not start with an HTTP/1.x request line: ${JSON.stringify((lines[0] ?? "").slice(0, 80))}`);
    const [, method = "", url = "", major, minor] = line;
    if (major !== "1") throw new RequestError(505, `HTTP/${major}.${minor} is not spoken here: HTTP/1.1 is`);
    if (!TOKEN.test(method)) throw bad(`the request's method is not a token: ${JSON.stringify(method.slice(0, 40))}`);
    if (!ORIGIN_FORM.test(url)) throw bad(`the request's target is not a path: ${JSON.stringify(url.slice(0, 80))}`);
    const http11 = minor !== "0";
    const fields = headerFields(lines.slice(1), bad);
    if (http11 && !fields.host) throw bad("an HTTP/1.1 request has no host header");
    let chunks: ChunkedFraming | undefined;
    if (fields.codings !== undefined) {
      if (fields.length !== undefined) throw bad("the request has both a content-length and a transfer-encoding");
      if (!chunkedLast(fields.codings)) throw bad(`the request's transfer-encoding does not end in chunked: ${JSON.stringify(fields.codings)}`);
      if (fields.codings.split(",").length > 1) throw new RequestError(501, `the request's transfer-encoding is not chunked alone: ${JSON.stringify(fields.codings)}`);
      chunks = new ChunkedFraming(bad);
    }
    if (fields.length !== undefined && fields.length > this.#maxBodyBytes) throw new RequestError(413, `the request's body is larger than ${this.#maxBodyBytes} bytes`);
    if (fields.expect !== undefined) {
      if (fields.expect !== "100-continue") throw new RequestError(417, `the request expects what the proxy does not give: ${JSON.stringify(fields.expect)}`);
      // An HTTP/1.0 agent cannot take an interim answer; one without a body waits for nothing.
      if (http11 && (chunks !== undefined || (fields.length ?? 0) > 0)) this.#onContinue();
    }
    const keepAlive = keptAlive(http11, fields.connection);
    return { head: { method, url, http11, rawHeaders: fields.rawHeaders, keepAlive }, length: fields.length, chunks, body: [], size: 0 };
  }
}

