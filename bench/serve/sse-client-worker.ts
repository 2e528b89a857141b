// Worker thread of sse-fanout.bench.ts (through sse-client-pool.ts): N lean SSE clients on raw
// TCP sockets. Each sends its GET by hand, decodes the chunked response itself and cuts the
// body into frames (one latin1 decoding per read, then string scans in JS): per frame it
// reads the id's digits, checks that ids go 1, 2, 3, … (across reconnects after a `resync`,
// resumed with Last-Event-ID), and reads the event's `sent_at` from the frame's end, for
// append -> receipt latency. No HTTP client: what the benchmark measures is the server more
// than the clients' parsing.
//
// Messages: in `{ port, path, token, count }` (workerData); out `{ type: "connected" }` once
// every client has its response headers, then `{ type: "done", results }` when every stream
// has ended (latencies transferred, not copied).
import net from "node:net";
import { parentPort, workerData } from "node:worker_threads";

export type ClientResult = { lastId: number; resyncs: number; problem: string | undefined; latencies: Float64Array; count: number };
type Job = { port: number; path: string; token: string; count: number };

const LF = 0x0a;
const HEADERS_END = Buffer.from("\r\n\r\n");
const SENT_AT = '"sent_at":';
const stamp = () => performance.timeOrigin + performance.now();

class LeanClient {
  lastId = 0;
  resyncs = 0;
  problem: string | undefined;
  latencies = new Float64Array(1024);
  count = 0;
  readonly #job: Job;

  constructor(job: Job) {
    this.#job = job;
  }

  /** Streams until the server ends the stream after the final event (reconnecting after a resync). */
  async follow(onConnected: () => void): Promise<void> {
    let first = true;
    for (;;) {
      const outcome = await this.#once(() => {
        if (first) onConnected();
        first = false;
      });
      if (outcome === "ended") return;
      this.resyncs += 1;
    }
  }

  #record(latency: number): void {
    if (this.count === this.latencies.length) {
      const grown = new Float64Array(this.latencies.length * 2);
      grown.set(this.latencies);
      this.latencies = grown;
    }
    this.latencies[this.count] = latency;
    this.count += 1;
  }

  /** One frame, [start, end) of `text` without its blank line; true for a `resync`. */
  #frame(text: string, start: number, end: number, now: number): boolean {
    if (text.startsWith("event: resync", start)) return true;
    if (!text.startsWith("id: ", start)) return false;
    let id = 0;
    let index = start + 4;
    for (let digit = text.charCodeAt(index); digit >= 0x30 && digit <= 0x39; digit = text.charCodeAt(++index)) id = id * 10 + (digit - 0x30);
    if (id !== this.lastId + 1 && this.problem === undefined) this.problem = `expected id ${this.lastId + 1}, got ${id}`;
    this.lastId = id;
    // The frame ends `…"sent_at":<number>}}`: read the number backwards from the closing braces.
    let numberEnd = end;
    while (numberEnd > start && text.charCodeAt(numberEnd - 1) === 0x7d) numberEnd -= 1;
    let numberStart = numberEnd;
    for (let code = text.charCodeAt(numberStart - 1); (code >= 0x30 && code <= 0x39) || code === 0x2e; code = text.charCodeAt(--numberStart - 1));
    if (numberStart < numberEnd && numberStart - SENT_AT.length >= start && text.startsWith(SENT_AT, numberStart - SENT_AT.length)) {
      this.#record(now - Number(text.slice(numberStart, numberEnd)));
    }
    return false;
  }

  #once(onConnected: () => void): Promise<"ended" | "resync"> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.#job.port, "127.0.0.1");
      socket.setNoDelay(true);
      const resume = this.lastId > 0 ? `Last-Event-ID: ${this.lastId}\r\n` : "";
      socket.write(`GET ${this.#job.path} HTTP/1.1\r\nHost: 127.0.0.1:${this.#job.port}\r\nAuthorization: Bearer ${this.#job.token}\r\nAccept: text/event-stream\r\n${resume}\r\n`);
      let head: Buffer | undefined = Buffer.alloc(0);
      let chunked = false;
      /** Bytes left in the current chunk; -1: reading a chunk-size line. */
      let chunkLeft = -1;
      let sizeLine = "";
      /** The start of a frame cut by a read, kept until its blank line arrives. */
      let carry: string | undefined;
      let resynced = false;
      let ended = false;
      const finish = (outcome: "ended" | "resync") => {
        if (ended) return;
        ended = true;
        socket.destroy();
        resolve(outcome);
      };
      const sse = (piece: Buffer, now: number) => {
        // One decoding per read (latin1: the frames' structure is ASCII), then string scans in JS.
        let text = piece.toString("latin1");
        if (carry !== undefined) text = carry + text;
        carry = undefined;
        let start = 0;
        for (let end = text.indexOf("\n\n", start); end !== -1; end = text.indexOf("\n\n", start)) {
          if (this.#frame(text, start, end, now)) resynced = true;
          start = end + 2;
        }
        if (start < text.length) carry = text.slice(start);
      };
      const body = (data: Buffer, now: number) => {
        if (!chunked) return sse(data, now);
        let offset = 0;
        while (offset < data.byteLength) {
          if (chunkLeft === -1) {
            const lineEnd = data.indexOf(LF, offset);
            if (lineEnd === -1) {
              sizeLine += data.toString("latin1", offset);
              return;
            }
            sizeLine += data.toString("latin1", offset, lineEnd);
            offset = lineEnd + 1;
            const line = sizeLine.trim();
            sizeLine = "";
            if (line === "") continue; // the CRLF after a chunk's data
            chunkLeft = Number.parseInt(line, 16);
            if (chunkLeft === 0) return finish(resynced ? "resync" : "ended");
            continue;
          }
          const take = Math.min(chunkLeft, data.byteLength - offset);
          sse(data.subarray(offset, offset + take), now);
          offset += take;
          chunkLeft -= take;
          if (chunkLeft === 0) chunkLeft = -1;
        }
      };
      socket.on("data", (data: Buffer) => {
        const now = stamp();
        if (head === undefined) return body(data, now);
        head = Buffer.concat([head, data]);
        const end = head.indexOf(HEADERS_END);
        if (end === -1) return;
        const text = head.toString("latin1", 0, end);
        const rest = head.subarray(end + HEADERS_END.byteLength);
        head = undefined;
        const status = Number(text.slice(9, 12));
        if (status === 204) return finish("ended");
        if (status !== 200) return reject(new Error(`status ${status}: ${text.split("\r\n", 1)[0]}`));
        chunked = /\r\ntransfer-encoding:\s*chunked/i.test(text);
        onConnected();
        if (rest.byteLength > 0) body(rest, now);
      });
      socket.once("end", () => finish(resynced ? "resync" : "ended"));
      socket.once("error", (error) => (ended ? undefined : reject(error)));
    });
  }
}

const job = workerData as Job;
const clients = Array.from({ length: job.count }, () => new LeanClient(job));
let connected = 0;
const done = Promise.all(clients.map((client) => client.follow(() => ++connected === job.count && parentPort?.postMessage({ type: "connected" }))));
await done;
const results: ClientResult[] = clients.map((client) => ({ lastId: client.lastId, resyncs: client.resyncs, problem: client.problem, latencies: client.latencies.subarray(0, client.count), count: client.count }));
parentPort?.postMessage(
  { type: "done", results },
  results.map((result) => result.latencies.buffer as ArrayBuffer),
);
