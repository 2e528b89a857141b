import fs from "node:fs";
import path from "node:path";
import { syncDirectory } from "./log-file-system.ts";
import { parseLogLine } from "./log-line.ts";

/** What the end of a log says once it has been repaired. */
export type TailState = {
  /** Byte length of the log: it ends with a complete line (or is empty). */
  size: number;
  /** The last event's seq (0 for an empty log): the writer continues from here. */
  lastSeq: number;
  lastType: string | undefined;
};

export type TailCut = { file: string; bytes: number; reason: "no_newline" | "invalid_line" };

/** Reads backwards in steps of this size: one step covers the last line of almost every log. */
const BACKWARD_STEP_BYTES = 64 * 1024;

/**
 * Makes a log end with a complete, valid event, and says where seq continues. A last line
 * without its newline (a crash in the middle of a write) is cut, and so is a last complete
 * line that is not an event; the cut bytes are saved beside the log (`events.jsonl.torn-…`)
 * and made durable before the log is truncated, so nothing is thrown away. Only the end of
 * the file is read, never the whole log. The caller must hold the run's writer lock.
 */
export function repairTail(fd: number, eventsPath: string, now: () => Date): TailState & { cut: TailCut | undefined } {
  const size = fs.fstatSync(fd).size;
  const completeEnd = lastNewlineBefore(fd, size) + 1;
  let cutFrom = completeEnd;
  let reason: TailCut["reason"] | undefined = completeEnd < size ? "no_newline" : undefined;
  if (completeEnd > 0) {
    const start = lastNewlineBefore(fd, completeEnd - 1) + 1;
    if (seqOfLine(fd, start, completeEnd - 1) === undefined) {
      cutFrom = start;
      reason ??= "invalid_line";
    }
  }
  let cut: TailCut | undefined;
  if (cutFrom < size && reason !== undefined) {
    const file = saveCutBytes(fd, eventsPath, cutFrom, size, now());
    fs.ftruncateSync(fd, cutFrom);
    fs.fdatasyncSync(fd);
    cut = { file, bytes: size - cutFrom, reason };
  }
  return { ...lastEventBefore(fd, cutFrom), cut };
}

/**
 * The tail of a log as it is, without changing it: the end of its last complete line and the
 * last event before it. For readers that do not hold the lock (the index rebuild).
 */
export function inspectTail(fd: number): TailState {
  const size = fs.fstatSync(fd).size;
  return lastEventBefore(fd, lastNewlineBefore(fd, size) + 1);
}

/** The last valid event ending at or before `end` (a line boundary), skipping malformed lines. */
function lastEventBefore(fd: number, end: number): TailState {
  let lineEnd = end;
  while (lineEnd > 0) {
    const start = lastNewlineBefore(fd, lineEnd - 1) + 1;
    const found = seqOfLine(fd, start, lineEnd - 1);
    if (found !== undefined) return { size: end, lastSeq: found.seq, lastType: found.type };
    lineEnd = start;
  }
  return { size: end, lastSeq: 0, lastType: undefined };
}

function seqOfLine(fd: number, start: number, end: number): { seq: number; type: string } | undefined {
  const event = parseLogLine(readRange(fd, start, end).toString("utf8"));
  if (typeof event === "string" || event.seq === undefined) return undefined;
  return { seq: event.seq, type: event.type };
}

/** Position of the last `\n` in [0, end), or -1 when there is none. */
export function lastNewlineBefore(fd: number, end: number): number {
  let stop = end;
  while (stop > 0) {
    const start = Math.max(0, stop - BACKWARD_STEP_BYTES);
    const index = readRange(fd, start, stop).lastIndexOf(0x0a);
    if (index !== -1) return start + index;
    stop = start;
  }
  return -1;
}

export function readRange(fd: number, start: number, end: number): Buffer {
  const buffer = Buffer.allocUnsafe(end - start);
  let done = 0;
  while (done < buffer.byteLength) {
    const read = fs.readSync(fd, buffer, done, buffer.byteLength - done, start + done);
    if (read === 0) break;
    done += read;
  }
  return buffer.subarray(0, done);
}

function saveCutBytes(fd: number, eventsPath: string, from: number, to: number, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, "");
  const bytes = readRange(fd, from, to);
  for (let attempt = 1; ; attempt += 1) {
    const file = `${eventsPath}.torn-${stamp}${attempt === 1 ? "" : `-${attempt}`}`;
    let side: number;
    try {
      side = fs.openSync(file, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw error;
    }
    try {
      fs.writeSync(side, bytes);
      fs.fsyncSync(side);
    } finally {
      fs.closeSync(side);
    }
    syncDirectory(path.dirname(file));
    return file;
  }
}
