import { LineSplitter } from "@baton/protocol";

export type Direction = "recv" | "send";

/** Called with every complete NDJSON line, in the order lines cross the wire. */
export type LineTap = (direction: Direction, line: string) => void;

/**
 * Wraps an agent's byte streams so every line is seen before the SDK parses it. The SDK drops
 * notifications it cannot validate and runs notification handlers concurrently, so order and
 * completeness must come from here: the tap runs synchronously as each chunk arrives.
 */
export function tapStreams(
  input: ReadableStream<Uint8Array>,
  output: WritableStream<Uint8Array>,
  tap: LineTap,
): { input: ReadableStream<Uint8Array>; output: WritableStream<Uint8Array> } {
  return { input: input.pipeThrough(lineTap("recv", tap)), output: tappedWritable(output, tap) };
}

function lineTap(direction: Direction, tap: LineTap): TransformStream<Uint8Array, Uint8Array> {
  const splitter = new LineSplitter();
  const emit = (line: string) => {
    if (line.trim().length > 0) tap(direction, line);
  };
  return new TransformStream({
    transform(chunk, controller) {
      for (const line of splitter.push(chunk)) emit(line);
      controller.enqueue(chunk);
    },
    flush() {
      const rest = splitter.end();
      if (rest !== undefined) emit(rest);
    },
  });
}

function tappedWritable(output: WritableStream<Uint8Array>, tap: LineTap): WritableStream<Uint8Array> {
  const splitter = new LineSplitter();
  const writer = output.getWriter();
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
