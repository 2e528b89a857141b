import { serializeCapped, type Envelope } from "@baton/protocol/core";

/**
 * Serializes an envelope under the size cap, and returns the envelope as stored: the same
 * object when it fits, else the parsed line, whose `data` is the truncation marker. A capped
 * line always ends with that marker (`data` is the envelope's last field), so only lines
 * ending like one are parsed back; a false positive is parsed too, which is merely exact.
 */
export function capEnvelope(event: Envelope, limitBytes: number): { line: string; stored: Envelope } {
  const line = serializeCapped(event, limitBytes);
  const stored = line.endsWith(`"limit_bytes":${limitBytes}}}`) ? (JSON.parse(line) as Envelope) : event;
  return { line, stored };
}
