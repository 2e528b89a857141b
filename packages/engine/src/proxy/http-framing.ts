// HTTP/1.1's syntax as the proxy reads it on both of its sides (RFC 9110, RFC 9112): header
// fields, and a chunked body's framing. The answer reader and the request reader each read a
// head of their own and share these.

/** A header name: RFC 9110's token. */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A header value: no control characters but the tab. */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
export const HEAD_END = Buffer.from("\r\n\r\n");
/** The longest chunk-size or trailer line read. */
const MAX_LINE_BYTES = 4 * 1024;
const CR = 13;
const LF = 10;

/** What a head's header lines say, with the lines themselves as name/value pairs. */
export type HeaderFields = {
  rawHeaders: string[];
  /** `content-length`, when given (one length, however often it is repeated). */
  length: number | undefined;
  /** Every `transfer-encoding` value, joined, when any was given. */
  codings: string | undefined;
  /** Every `connection` value, lower case, each after a comma. */
  connection: string;
  /** Every `expect` value, lower case, joined. */
  expect: string | undefined;
  /** Whether a `host` header was given. */
  host: boolean;
};

/**
 * Reads a head's header lines (those after its first line). Refuses, through `refuse`, a line
 * that is not `name: value`, a folded line, a name that is not a token, a value with a control
 * character, and more than one content length.
 */
export function headerFields(lines: readonly string[], refuse: (message: string) => Error): HeaderFields {
  const fields: HeaderFields = { rawHeaders: [], length: undefined, codings: undefined, connection: "", expect: undefined, host: false };
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0 || line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9) throw refuse(`a header line is not "name: value": ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon);
    const value = line.slice(colon + 1).trim();
    if (!TOKEN.test(name)) throw refuse(`a header name is not a token: ${JSON.stringify(name.slice(0, 80))}`);
    if (!FIELD_VALUE.test(value)) throw refuse(`the header ${name} has a control character in its value`);
    fields.rawHeaders.push(name, value);
    const lower = name.toLowerCase();
    if (lower === "content-length") {
      if (!/^\d{1,15}$/.test(value) || (fields.length !== undefined && fields.length !== Number(value))) throw refuse(`the content-length is not one length: ${JSON.stringify(value)}`);
      fields.length = Number(value);
    } else if (lower === "transfer-encoding") fields.codings = fields.codings === undefined ? value : `${fields.codings}, ${value}`;
    else if (lower === "connection") fields.connection += `,${value.toLowerCase()}`;
    else if (lower === "expect") fields.expect = fields.expect === undefined ? value.toLowerCase() : `${fields.expect}, ${value.toLowerCase()}`;
    else if (lower === "host") fields.host = true;
  }
  return fields;
}

/** Whether the last transfer coding is `chunked`. */
export function chunkedLast(codings: string): boolean {
  return /(?:^|,)\s*chunked\s*$/i.test(codings);
}

/** Whether the connection is kept after this message: HTTP/1.1 unless `close`, HTTP/1.0 only with `keep-alive`. */
export function keptAlive(http11: boolean, connection: string): boolean {
  return http11 ? !/(?:^|,)\s*close\s*(?:,|$)/.test(connection) : /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(connection);
}

/** What one {@link ChunkedFraming.read} found. */
export type ChunkRead = {
  /** Where the bytes to hand on end: the last chunk and its trailers are not handed on. */
  passedTo: number;
  /** The data of the chunks read, in order (views of the bytes read, not copies). */
  pieces: Buffer[];
  /** The end of a line not whole yet: to be read again with the bytes that follow it. */
  held: Buffer | undefined;
  /** Where the framing ended (the byte after the last chunk's trailers), or the bytes' end. */
  end: number;
};

type ChunkState = "size" | "data" | "data-cr" | "data-lf" | "trailers" | "done";

/**
 * A chunked body's framing (RFC 9112 §7.1), read as its bytes come: a hexadecimal size (its
 * extensions skipped), the data, a line end; a last chunk of size 0, trailers, an empty line.
 * A line split between two reads is handed back as `held`, to come again in front of the next.
 */
export class ChunkedFraming {
  readonly #refuse: (message: string) => Error;
  #state: ChunkState = "size";
  /** Bytes left of the chunk's data. */
  #left = 0;

  constructor(refuse: (message: string) => Error) {
    this.#refuse = refuse;
  }

  /** Whether the body's framing has been read to its end. */
  get done(): boolean {
    return this.#state === "done";
  }

  /**
   * Reads the framing in `data` from `at`.
   *
   * @throws what `refuse` makes of framing that is not chunked framing.
   */
  read(data: Buffer, from: number): ChunkRead {
    let at = from;
    let passedTo = this.#state === "trailers" ? from : -1;
    let held: Buffer | undefined;
    const pieces: Buffer[] = [];
    while (at < data.length && this.#state !== "done") {
      switch (this.#state) {
        case "size": {
          const lf = data.indexOf(LF, at);
          if (lf === -1) {
            // A size line not whole yet: held, and handed on with the rest of it.
            if (data.length - at > MAX_LINE_BYTES) throw this.#refuse("a chunk-size line is too long");
            held = data.subarray(at);
            passedTo = at;
            at = data.length;
            break;
          }
          const size = this.#size(data.toString("latin1", at, lf));
          if (size === 0) {
            passedTo = at;
            this.#state = "trailers";
          } else {
            this.#left = size;
            this.#state = "data";
          }
          at = lf + 1;
          break;
        }
        case "data": {
          const take = Math.min(this.#left, data.length - at);
          pieces.push(data.subarray(at, at + take));
          this.#left -= take;
          at += take;
          if (this.#left === 0) this.#state = "data-cr";
          break;
        }
        case "data-cr":
        case "data-lf": {
          const byte = data[at];
          at += 1;
          if (this.#state === "data-cr" && byte === CR) this.#state = "data-lf";
          else if (byte === LF) this.#state = "size";
          else throw this.#refuse("a chunk's data does not end where its size says");
          break;
        }
        case "trailers": {
          const lf = data.indexOf(LF, at);
          if (lf === -1) {
            if (data.length - at > MAX_LINE_BYTES) throw this.#refuse("a trailer line is too long");
            held = data.subarray(at);
            at = data.length;
            break;
          }
          const empty = lf === at || (lf === at + 1 && data[at] === CR);
          at = lf + 1;
          if (empty) this.#state = "done";
          break;
        }
      }
    }
    return { passedTo: passedTo === -1 ? data.length : passedTo, pieces, held, end: at };
  }

  /** A chunk-size line's size (its extensions and line ending left out). */
  #size(line: string): number {
    const hex = /^([0-9a-fA-F]{1,12})[ \t]*(?:;.*)?\r?$/.exec(line);
    if (hex === null) throw this.#refuse(`a chunk-size line is not a size: ${JSON.stringify(line.slice(0, 40))}`);
    return Number.parseInt(hex[1] as string, 16);
  }
}
