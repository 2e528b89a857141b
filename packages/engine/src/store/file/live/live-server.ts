import net from "node:net";
import type { Envelope } from "@baton/protocol/core";
import { removeEndpoint, writePointer, type LiveEndpoint } from "./live-endpoint.ts";

/**
 * Bytes a live reader may leave unread (beyond what the kernel's socket buffer holds) before
 * the writer drops it: deltas are best-effort, a reader that cannot keep up loses them, the
 * run never waits for it.
 */
export const LIVE_READER_BUFFER_BYTES = 1024 * 1024;

/** Readers connected at once; more are refused (each costs a write per delta). */
export const MAX_LIVE_READERS = 64;

/**
 * The writer's end of a run's live socket: every ephemeral event, as one NDJSON line
 * `{"after_seq": N, "event": {…}}`, to each connected reader. `after_seq` is the seq of the
 * last durable event appended before it: a reader holds the event until it has read that
 * seq from the log, so deltas stay in order with durable events. Readers never send.
 *
 * Cost to the run: nothing per event when nobody is connected (one size check); otherwise one
 * `JSON.stringify` and a non-blocking write per reader. A reader whose unread bytes pass
 * LIVE_READER_BUFFER_BYTES is destroyed. Listening never keeps the process alive (unref), and
 * any failure (cannot bind, socket error) only turns live deltas off for this run.
 */
export class LiveServer {
  readonly #endpoint: LiveEndpoint;
  readonly #server: net.Server;
  readonly #readers = new Set<net.Socket>();
  #closed = false;

  private constructor(endpoint: LiveEndpoint) {
    this.#endpoint = endpoint;
    this.#server = net.createServer((socket) => this.#accept(socket));
    this.#server.maxConnections = MAX_LIVE_READERS;
    // EADDRINUSE and the like: the run goes on without live deltas.
    this.#server.on("error", () => this.close());
  }

  /**
   * Listens at `endpoint`. The caller holds the run's writer lock, so a socket already there
   * is a dead writer's: it is replaced. Returns undefined when listening is impossible.
   */
  static listen(endpoint: LiveEndpoint): LiveServer | undefined {
    try {
      removeEndpoint(endpoint);
      writePointer(endpoint);
      const live = new LiveServer(endpoint);
      // Binds synchronously (the socket file exists on return); errors arrive as 'error'.
      live.#server.listen(endpoint.socket);
      live.#server.unref();
      return live;
    } catch {
      return undefined;
    }
  }

  /** Readers connected now. */
  get readerCount(): number {
    return this.#readers.size;
  }

  /** Sends an ephemeral event to every reader; `afterSeq` is the last seq appended before it. */
  send(event: Envelope, afterSeq: number): void {
    if (this.#readers.size === 0) return;
    const line = Buffer.from(`${JSON.stringify({ after_seq: afterSeq, event })}\n`);
    for (const socket of this.#readers) {
      if (socket.writableLength > LIVE_READER_BUFFER_BYTES) {
        // A slow or stuck reader: drop it rather than buffer for it.
        this.#readers.delete(socket);
        socket.destroy();
        continue;
      }
      socket.write(line);
    }
  }

  /** Disconnects the readers, stops listening, removes the socket (and pointer file). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const socket of this.#readers) socket.destroy();
    this.#readers.clear();
    this.#server.close();
    try {
      removeEndpoint(this.#endpoint);
    } catch {
      // Best-effort: a socket left behind is stale and replaced by the next writer.
    }
  }

  #accept(socket: net.Socket): void {
    if (this.#closed) {
      socket.destroy();
      return;
    }
    socket.unref();
    this.#readers.add(socket);
    socket.on("error", () => socket.destroy());
    socket.on("close", () => this.#readers.delete(socket));
    // Readers send nothing; whatever comes is discarded, and reading notices their end.
    socket.resume();
  }
}
