import { createReadStream } from "node:fs";
import { LineSplitter, type Envelope } from "@baton/protocol/core";

/** How much of the log is read at a time. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * A closed run log's events, in order. Plain JSON lines, without the catalog's schemas: a
 * run's end must not load them (see resume-imports.test.ts); a line that is not an envelope is
 * skipped, as the log's readers skip a torn one.
 */
export async function* readLogFile(file: string): AsyncGenerator<Envelope> {
  const parse = (line: string): Envelope | undefined => {
    if (line.trim() === "") return undefined;
    try {
      const value = JSON.parse(line) as Envelope;
      return typeof value.type === "string" && typeof value.run === "string" && typeof value.data === "object" ? value : undefined;
    } catch {
      return undefined; // a torn or damaged line: readers take what the log holds whole
    }
  };
  // Read in large chunks and split on newlines as the log's readers do (readline took twice as long).
  const splitter = new LineSplitter();
  for await (const chunk of createReadStream(file, { highWaterMark: READ_CHUNK_BYTES })) {
    for (const line of splitter.push(chunk as Buffer)) {
      const event = parse(line);
      if (event !== undefined) yield event;
    }
  }
  const rest = splitter.end();
  const last = rest === undefined ? undefined : parse(rest);
  if (last !== undefined) yield last;
}
