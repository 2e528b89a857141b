/**
 * Writes a line and waits while the stream's buffer is full. Stdout into a pipe is
 * asynchronous in Node: without waiting, a slow reader (`| jq`) makes memory grow with the
 * whole log. A stream whose reader has gone (EPIPE) never drains: its failure ends the wait.
 */
export async function writeLine(stream: NodeJS.WritableStream, line: string): Promise<void> {
  if (stream.write(`${line}\n`)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      for (const event of ["drain", "close", "error"]) stream.off(event, done);
      resolve();
    };
    for (const event of ["drain", "close", "error"]) stream.once(event, done);
  });
}
