import http, { type IncomingMessage } from "node:http";

/** One server-sent event frame as received (a comment frame has only `comment`). */
export type SseFrame = { id?: string; event?: string; data?: string; retry?: number; comment?: string };

/**
 * A test client of an SSE stream over a real socket: parses frames as they arrive, can stop
 * reading (the socket's buffers fill and the server's writes stop draining) and resume.
 *
 * @example
 * const reader = await SseReader.open(`${url}/api/runs/1/stream`, { authorization: `Bearer ${token}` });
 * await reader.ended;
 */
export class SseReader {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  readonly frames: SseFrame[] = [];
  /** Resolves when the server ends the response (or the connection closes). */
  readonly ended: Promise<void>;
  readonly #response: IncomingMessage;
  #buffer = "";
  #listeners = new Set<() => void>();

  private constructor(response: IncomingMessage) {
    this.#response = response;
    this.status = response.statusCode ?? 0;
    this.headers = response.headers;
    response.setEncoding("utf8");
    response.on("data", (text: string) => this.#push(text));
    this.ended = new Promise((resolve) => {
      response.once("end", () => resolve());
      response.once("close", () => resolve());
      response.once("error", () => resolve());
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
    return new Promise((resolve, reject) => {
      const request = http.get(url, { headers: { accept: "text/event-stream", ...headers } }, (response) => resolve(new SseReader(response)));
      request.once("error", reject);
    });
  }

  /** Durable events (frames with an id), parsed. */
  events<T = Record<string, unknown>>(): Array<T & { __id: number }> {
    return this.frames.filter((f) => f.id !== undefined && f.data !== undefined).map((f) => ({ ...(JSON.parse(f.data as string) as T), __id: Number(f.id) }));
  }

  /** Stops reading from the socket: the server's writes back up. */
  pause(): void {
    this.#response.pause();
  }

  resume(): void {
    this.#response.resume();
  }

  close(): void {
    this.#response.destroy();
  }

  /** Waits until `predicate` holds for the frames received so far. */
  async waitFor(what: string, predicate: (frames: readonly SseFrame[]) => boolean, timeoutMs = 30_000): Promise<void> {
    if (predicate(this.frames)) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#listeners.delete(check);
        reject(new Error(`timed out waiting for ${what}; ${this.frames.length} frames so far`));
      }, timeoutMs);
      const check = () => {
        if (!predicate(this.frames)) return;
        clearTimeout(timer);
        this.#listeners.delete(check);
        resolve();
      };
      this.#listeners.add(check);
      void this.ended.then(() => {
        if (!this.#listeners.has(check)) return;
        clearTimeout(timer);
        this.#listeners.delete(check);
        if (predicate(this.frames)) resolve();
        else reject(new Error(`the stream ended before ${what}; ${this.frames.length} frames`));
      });
    });
  }

  #push(text: string): void {
    this.#buffer += text;
    for (let end = this.#buffer.indexOf("\n\n"); end !== -1; end = this.#buffer.indexOf("\n\n")) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      this.frames.push(parseFrame(block));
    }
    for (const listener of [...this.#listeners]) listener();
  }
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) {
      frame.comment = line.slice(1).trim();
      continue;
    }
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") frame.id = value;
    else if (field === "event") frame.event = value;
    else if (field === "retry") frame.retry = Number(value);
    else if (field === "data") frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
  }
  return frame;
}
