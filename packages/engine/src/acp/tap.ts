import { LineSplitter } from "@baton/protocol/core";

export type Direction = "recv" | "send";

/**
 * Called with every complete NDJSON line, in the order lines cross the wire. For a received
 * line, returning false keeps it from the SDK (Baton has handled it from the tap alone).
 */
export type LineTap = (direction: Direction, line: string) => boolean | void;

/** The agent's streams as the SDK gets them, and a way to send a line past the SDK. */
export type TappedStreams = {
  input: ReadableStream<Uint8Array>;
  output: WritableStream<Uint8Array>;
  /**
   * Sends one line (a whole JSON-RPC message, without its newline) to the agent at once: the
   * tap sees it, then it goes on the wire after what was already handed to it. A message the
   * SDK has queued but not yet written goes after it.
   */
  send: (line: string) => void;
};

/**
 * Wraps an agent's byte streams so every line is seen before the SDK parses it. The SDK drops
 * notifications it cannot validate and runs notification handlers concurrently, so order and
 * completeness must come from here: the tap runs synchronously as each chunk arrives.
 */
export function tapStreams(input: ReadableStream<Uint8Array>, output: WritableStream<Uint8Array>, tap: LineTap): TappedStreams {
  const writer = output.getWriter();
  const encoder = new TextEncoder();
  return {
    input: input.pipeThrough(lineTap("recv", tap)),
    output: tappedWritable(writer, tap),
    send(line) {
      tap("send", line);
      // A failed write (the agent gone) is the session's end, which the SDK's side reports.
      writer.write(encoder.encode(`${line}\n`)).catch(() => {});
    },
  };
}

/** Passes on each complete line (with its newline, so the bytes are unchanged) that the tap keeps. */
function lineTap(direction: Direction, tap: LineTap): TransformStream<Uint8Array, Uint8Array> {
  const splitter = new LineSplitter();
  const encoder = new TextEncoder();
  const forward = (line: string) => line.trim().length === 0 || tap(direction, line) !== false;
  return new TransformStream({
    transform(chunk, controller) {
      for (const line of splitter.push(chunk)) if (forward(line)) controller.enqueue(encoder.encode(`${line}\n`));
    },
    flush(controller) {
      const rest = splitter.end();
      if (rest !== undefined && forward(rest)) controller.enqueue(encoder.encode(rest));
    },
  });
}

function tappedWritable(writer: WritableStreamDefaultWriter<Uint8Array>, tap: LineTap): WritableStream<Uint8Array> {
  const splitter = new LineSplitter();
  return new WritableStream<Uint8Array>({
    async write(chunk) {
      for (const line of splitter.push(chunk)) if (line.trim().length > 0) tap("send", line);
      await writer.write(chunk);
    },
    async close() {
      await writer.close();
    },
    async abort(reason) {
      await writer.abort(reason);
    },
  });
}
