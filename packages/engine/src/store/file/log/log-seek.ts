import type { FileHandle } from "node:fs/promises";

/** Below this distance the search stops and the reader scans: a few hundred lines at most. */
const SCAN_WINDOW_BYTES = 64 * 1024;
/** First read of a probe; doubled until the probed line is whole (events go up to 1 MiB). */
const PROBE_BYTES = 4 * 1024;

/**
 * Byte offset of a line start at or before the first event with seq > `after`, found by
 * binary search over the bytes [0, end) of a log (seq grows with the position): seek to the
 * middle, skip to the next line start, parse that line's seq, halve. So reading the last
 * events of a 1,000,000-event log costs about twenty small reads, not a scan.
 *
 * The result is a lower bound: the caller streams from it and skips events with seq <= after,
 * so a malformed line met by a probe only makes the final scan a little longer, never wrong.
 */
export async function seekAfterSeq(handle: FileHandle, after: number, end: number): Promise<number> {
  if (after <= 0) return 0;
  // Invariant: `low` is a line start and every line before it has seq <= after.
  let low = 0;
  let high = end;
  while (high - low > SCAN_WINDOW_BYTES) {
    const middle = low + Math.floor((high - low) / 2);
    const probe = await probeLine(handle, middle, high);
    if (probe === undefined || probe.seq === undefined) high = middle;
    else if (probe.seq <= after) low = probe.next;
    else high = probe.start;
  }
  return low;
}

type Probe = { start: number; next: number; seq: number | undefined };

/** The first line starting in [from, limit), with its seq (undefined when not an event). */
async function probeLine(handle: FileHandle, from: number, limit: number): Promise<Probe | undefined> {
  // Reading from `from - 1` finds a line that starts exactly at `from` too.
  let size = PROBE_BYTES;
  for (;;) {
    const { bytes, atEof } = await readAt(handle, from - 1, size);
    const newline = bytes.indexOf(0x0a);
    if (newline === -1) {
      if (atEof || from - 1 + bytes.byteLength >= limit) return undefined;
      size *= 2;
      continue;
    }
    const start = from + newline;
    if (start >= limit) return undefined;
    const lineEnd = bytes.indexOf(0x0a, newline + 1);
    if (lineEnd === -1) {
      if (atEof) return { start, next: start + (bytes.byteLength - newline - 1), seq: undefined };
      size *= 2;
      continue;
    }
    const text = bytes.subarray(newline + 1, lineEnd).toString("utf8");
    return { start, next: from + lineEnd, seq: seqOf(text) };
  }
}

function seqOf(text: string): number | undefined {
  try {
    const value = JSON.parse(text) as { seq?: unknown };
    return typeof value.seq === "number" && Number.isSafeInteger(value.seq) ? value.seq : undefined;
  } catch {
    return undefined;
  }
}

async function readAt(handle: FileHandle, position: number, size: number): Promise<{ bytes: Buffer; atEof: boolean }> {
  const buffer = Buffer.allocUnsafe(size);
  const { bytesRead } = await handle.read(buffer, 0, size, position);
  return { bytes: buffer.subarray(0, bytesRead), atEof: bytesRead < size };
}
