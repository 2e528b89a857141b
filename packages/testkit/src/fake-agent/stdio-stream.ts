import { Readable } from "node:stream";
import type { Writable } from "node:stream";

/**
 * A Node writable (stdout) as a Web WritableStream whose writes settle when Node has taken the
 * bytes, so an awaited send really waits for the transport; that bounds memory in a `flood`.
 */
export function writableFromNode(output: Writable): WritableStream<Uint8Array> {
  return new WritableStream({
    write(chunk) {
      return new Promise((resolve, reject) => {
        output.write(chunk, (error) => (error ? reject(error) : resolve()));
      });
    },
  });
}

/** A Node readable (stdin) as a Web ReadableStream of bytes, for the SDK's `ndJsonStream`. */
export function readableFromNode(input: Readable): ReadableStream<Uint8Array> {
  return Readable.toWeb(input) as ReadableStream<Uint8Array>;
}

/**
 * Keeps a closed pipe from crashing the process with an unhandled 'error' event. EPIPE means
 * the client stopped reading: nobody is left to talk to, so `onPeerGone` should end quietly.
 */
export function guardAgainstEpipe(output: Writable, onPeerGone: () => void, onOtherError: (error: Error) => void): void {
  output.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") onPeerGone();
    else onOtherError(error);
  });
}
