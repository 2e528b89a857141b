import type { FileHandle } from "node:fs/promises";
import { LineSplitter, parseEventLine, type Envelope } from "@baton/protocol";

/** A line of a log that is not an event: reported, never dropped silently, never fatal. */
export type MalformedLine = { file: string; line: number; error: string; text: string };

export type OnMalformed = (malformed: MalformedLine) => void;

/** The default report of a malformed line: a process warning on stderr. */
export const warnMalformed: OnMalformed = (malformed) => {
  process.emitWarning(`${malformed.file}:${malformed.line}: ${malformed.error}`, { code: "BATON_MALFORMED_EVENT" });
};

/** An event read from a log, with the byte offset just past its line. */
export type RangeItem = { event: Envelope; end: number };

/**
 * Read size for streaming a log. Larger chunks keep more lines alive across awaits, which V8
 * then promotes to the old generation: 64 KiB measured both faster and ~60 MB leaner than
 * 256 KiB when following 1,000,000 events.
 */
const READ_CHUNK_BYTES = 64 * 1024;

/**
 * Streams the events in bytes [start, end) of a log; `start` must be a line start. Memory
 * stays at one chunk plus one line, whatever the size of the range. A malformed line is
 * passed to `onMalformed` with its 1-based line number in the whole file: counting the
 * lines before `start` needs a read of the file up to there, so it is done only when a
 * malformed line is actually met.
 */
export async function* readLogRange(
  handle: FileHandle,
  start: number,
  end: number,
  options: { file: string; onMalformed: OnMalformed },
): AsyncGenerator<RangeItem> {
  const splitter = new LineSplitter();
  const buffer = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, Math.max(1, end - start)));
  let position = start;
  let offset = start;
  let localLine = 0;
  let linesBefore: number | undefined;
  // Parsing is synchronous; only a malformed line needs an await (to number it).
  const parseLine = (text: string, hasNewline: boolean): RangeItem | MalformedItem | undefined => {
    localLine += 1;
    offset += Buffer.byteLength(text) + (hasNewline ? 1 : 0);
    if (text.trim().length === 0) return undefined;
    const item = parseEventLine(text, localLine);
    if (item.kind === "event") return { event: item.event, end: offset };
    return { malformed: { line: localLine, error: item.error, text: item.text } };
  };
  const report = async (malformed: MalformedItem["malformed"]) => {
    linesBefore ??= await countNewlines(handle, start);
    options.onMalformed({ ...malformed, file: options.file, line: linesBefore + malformed.line });
  };
  while (position < end) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.byteLength, end - position), position);
    if (bytesRead === 0) break;
    position += bytesRead;
    for (const text of splitter.push(buffer.subarray(0, bytesRead))) {
      const item = parseLine(text, true);
      if (item === undefined) continue;
      if ("event" in item) yield item;
      else await report(item.malformed);
    }
  }
  const rest = splitter.end();
  const item = rest === undefined ? undefined : parseLine(rest, false);
  if (item !== undefined) {
    if ("event" in item) yield item;
    else await report(item.malformed);
  }
}

type MalformedItem = { malformed: { line: number; error: string; text: string } };

/** Number of `\n` bytes in [0, end). */
async function countNewlines(handle: FileHandle, end: number): Promise<number> {
  const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
  let count = 0;
  for (let position = 0; position < end; ) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.byteLength, end - position), position);
    if (bytesRead === 0) break;
    for (let index = buffer.indexOf(0x0a, 0); index !== -1 && index < bytesRead; index = buffer.indexOf(0x0a, index + 1)) count += 1;
    position += bytesRead;
  }
  return count;
}
