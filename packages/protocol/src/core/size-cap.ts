import { DEFAULT_EVENT_LIMIT_BYTES, type Envelope } from "./constants.ts";

/** The `data` of an event that was too large to keep. */
export type TruncatedData = { truncated: true; original_bytes: number; limit_bytes: number };

/**
 * Serializes an envelope, replacing its `data` with a truncation marker when the whole line
 * would exceed the limit. The envelope (run, seq, type, at) is always kept.
 */
export function serializeCapped(event: Envelope, limitBytes = DEFAULT_EVENT_LIMIT_BYTES): string {
  const line = JSON.stringify(event);
  // Most events are far below the cap: skip the exact byte count when the UTF-16 length
  // proves it (each UTF-16 unit is at most 3 UTF-8 bytes).
  if (line.length * 3 <= limitBytes) return line;
  const bytes = new TextEncoder().encode(line).byteLength;
  if (bytes <= limitBytes) return line;
  const data: TruncatedData = { truncated: true, original_bytes: bytes, limit_bytes: limitBytes };
  return JSON.stringify({ ...event, data });
}

/** True when an event's data was replaced by a truncation marker. */
export function isTruncated(event: Envelope): boolean {
  return event.data["truncated"] === true && typeof event.data["original_bytes"] === "number";
}
