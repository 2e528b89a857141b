import { once } from "node:events";

/**
 * Writes a line and waits while the stream's buffer is full. Stdout into a pipe is
 * asynchronous in Node: without waiting, a slow reader (`| jq`) makes memory grow with the
 * whole log.
 */
export async function writeLine(stream: NodeJS.WritableStream, line: string): Promise<void> {
  if (!stream.write(`${line}\n`)) await once(stream, "drain");
}
