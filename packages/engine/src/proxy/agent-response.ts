import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";

/** The request an answer is for, as far as its framing goes. */
export type AnsweredRequest = { method: string; http11: boolean; keepAlive: boolean };

/** How an answer's body is framed for the agent. */
type Framing =
  /** No body: a HEAD request, a 204, a 304. */
  | "none"
  /** The body's length is in the head: its bytes go as they are. */
  | "length"
  /** Chunks the proxy passes on as they came from the upstream, framing and all (docs/adr/0044). */
  | "as-it-came"
  /** Chunks the proxy frames: a body of no known length to an HTTP/1.1 agent. */
  | "chunks"
  /** Runs to the connection's close: a body of no known length to an HTTP/1.0 agent. */
  | "close";

const LAST_CHUNK = Buffer.from("0\r\n\r\n");
const CRLF = "\r\n";

/**
 * One answer to an agent's request, written to its connection by the proxy itself: the status
 * line and headers, then the body framed for the agent (docs/adr/0046). The head is held until
 * the body's first bytes (or {@link flush}, or the end), so that they go in one write. `done`
 * is called once, when the answer is whole, with whether the connection can carry the next
 * request; a connection that closes first calls the {@link onClose} listeners instead.
 */
export class AgentResponse {
  readonly socket: Socket;
  readonly #request: AnsweredRequest;
  readonly #done: (keepAlive: boolean) => void;
  readonly #closeListeners: Array<() => void> = [];
  #framing: Framing = "length";
  /** The head, written with the first bytes after it. */
  #head: string | undefined;
  #started = false;
  #ended = false;
  #keepAlive: boolean;

  constructor(socket: Socket, request: AnsweredRequest, done: (keepAlive: boolean) => void) {
    this.socket = socket;
    this.#request = request;
    this.#done = done;
    this.#keepAlive = request.keepAlive;
  }

  /** Whether the head has been given (it may still be held). */
  get started(): boolean {
    return this.#started;
  }

  /** Whether the body goes on as the upstream's chunks came, framing and all ({@link writeWire}). */
  get takesWire(): boolean {
    return this.#framing === "as-it-came";
  }

  /** A whole answer, in one write. */
  send(status: number, headers: readonly string[], body: string): void {
    const bytes = Buffer.from(body);
    this.head(status, [...headers, "content-length", String(bytes.length)], false);
    this.end(this.#framing === "none" ? undefined : bytes);
  }

  /** A whole JSON answer, in one write. */
  json(status: number, body: unknown): void {
    this.send(status, ["content-type", "application/json"], JSON.stringify(body));
  }

  /**
   * The answer's status and headers (hop-by-hop ones already left out; a `content-length` kept
   * unless the body comes in chunks), held until the first bytes of the body. `chunked`: the
   * body will come as chunked framing, to be passed on as it came when the agent takes chunks.
   */
  head(status: number, headers: readonly string[], chunked: boolean): void {
    if (this.#started) throw new Error("the answer's head was already given");
    this.#started = true;
    let length = false;
    let text = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Unknown"}${CRLF}`;
    for (let i = 0; i + 1 < headers.length; i += 2) {
      const name = headers[i] as string;
      if (name.length === 14 && name.toLowerCase() === "content-length") {
        // A body in chunks is framed by them, whatever length its head also gives (RFC 9112 §6.3).
        if (chunked) continue;
        length = true;
      }
      text += `${name}: ${headers[i + 1] as string}${CRLF}`;
    }
    if (this.#request.method === "HEAD" || status === 204 || status === 304) this.#framing = "none";
    else if (length) this.#framing = "length";
    else if (!this.#request.http11) this.#framing = "close";
    else this.#framing = chunked ? "as-it-came" : "chunks";
    if (this.#framing === "as-it-came" || this.#framing === "chunks") text += `transfer-encoding: chunked${CRLF}`;
    if (this.#framing === "close") this.#keepAlive = false;
    if (!this.#keepAlive) text += `connection: close${CRLF}`;
    else if (!this.#request.http11) text += `connection: keep-alive${CRLF}`;
    this.#head = `${text}${CRLF}`;
  }

  /** Writes the head if it is still held. */
  flush(): void {
    if (this.#head === undefined) return;
    this.socket.write(this.#head, "latin1");
    this.#head = undefined;
  }

  /** Bytes of chunked framing as the upstream sent them, up to its last chunk ({@link takesWire}). Returns false when the agent's socket is full. */
  writeWire(wire: Buffer): boolean {
    this.flush();
    return this.socket.write(wire);
  }

  /** A piece of the body's data, framed for the agent. Returns false when the agent's socket is full. */
  write(data: Buffer): boolean {
    if (data.length === 0 || this.#framing === "none") return true;
    this.flush();
    if (this.#framing !== "chunks") return this.socket.write(data);
    this.socket.write(`${data.length.toString(16)}${CRLF}`, "latin1");
    this.socket.write(data);
    return this.socket.write(CRLF, "latin1");
  }

  /** The answer's end: its last piece of data, if any, then what ends the body for the agent. */
  end(data?: Buffer): void {
    if (this.#ended) return;
    if (!this.#started) throw new Error("the answer ended before its head was given");
    this.#ended = true;
    const socket = this.socket;
    socket.cork();
    if (data !== undefined) this.write(data);
    this.flush();
    if (this.#framing === "as-it-came" || this.#framing === "chunks") socket.write(LAST_CHUNK);
    socket.uncork();
    this.#done(this.#keepAlive);
  }

  /** Cuts the answer: the agent's connection is closed mid-answer. */
  destroy(): void {
    this.socket.destroy();
  }

  /** Resets the agent's connection (a TCP reset), as an upstream's reset before its answer looks to a direct caller. */
  reset(): void {
    if (this.socket.destroyed) return;
    try {
      this.socket.resetAndDestroy();
    } catch {
      // A unix socket has no reset: it is closed.
      this.socket.destroy();
    }
  }

  /** Called when the agent's connection closes before the answer's end. */
  onClose(listener: () => void): void {
    this.#closeListeners.push(listener);
  }

  /** The connection closed: the answer, unless whole, is over for the agent. */
  closed(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const listener of this.#closeListeners.splice(0)) listener();
  }
}
