import type { ServerResponse } from "node:http";

/**
 * Where a client's SSE bytes go: the HTTP response itself. `write` hands bytes to the socket
 * without copying them and says whether to go on (false: the socket's buffer is past its
 * high-water mark; wait for `onDrain`), so a client keeps at most about one high-water mark
 * of its own in flight, with no promise per write.
 */
export type SseSink = {
  /** Queues bytes on the connection; false when the caller should wait for `onDrain`. */
  write(bytes: Uint8Array): boolean;
  /** Calls `listener` once, when the connection takes more (or closes). */
  onDrain(listener: () => void): void;
  /** Ends the response after what is queued. */
  end(): void;
  /** Calls `listener` once, when the connection is gone (the client left, or the response ended and was flushed). */
  onClose(listener: () => void): void;
  /** True once the connection is gone. */
  readonly closed: boolean;
  /** Tears the connection down at once. */
  destroy(): void;
};

/** The response headers of every stream. */
const SSE_HEADERS = {
  "Content-Type": "text/event-stream",
  "Cache-Control": "no-cache",
  Connection: "keep-alive",
  // Proxies (nginx) buffer responses unless told not to; a stream must flow.
  "X-Accel-Buffering": "no",
};

/**
 * Starts a 200 `text/event-stream` response on Node's own response object. hono's
 * `streamSSE` passes each write through three Web Streams and a promise before it reaches
 * the socket, per client; a hub fanning one event out to hundreds of clients writes here
 * directly.
 */
export function responseSink(response: ServerResponse): SseSink {
  response.writeHead(200, SSE_HEADERS);
  let closed = false;
  response.once("close", () => (closed = true));
  return {
    write: (bytes) => !closed && response.write(bytes),
    onDrain: (listener) => {
      if (closed) return queueMicrotask(listener);
      const once = () => {
        response.off("drain", once);
        response.off("close", once);
        listener();
      };
      response.on("drain", once);
      response.on("close", once);
    },
    end: () => {
      if (!closed && !response.writableEnded) response.end();
    },
    onClose: (listener) => {
      if (closed) queueMicrotask(listener);
      else response.once("close", listener);
    },
    get closed() {
      return closed;
    },
    destroy: () => response.destroy(),
  };
}
