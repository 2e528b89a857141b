import type { Envelope } from "@baton/protocol/core";

/**
 * Parses one line of a run's log: the event, or why the line is not one. The store reads
 * logs that its own writer produced, so the check is structural: a JSON object whose `v` is
 * a number, `run`, `at` and `type` strings, `seq` a positive integer and `data` an object.
 * The protocol's envelope schema (zod, with the formats of ids and times) cost more than
 * the JSON parse itself on every line read and allocated for each; it stays the check for
 * logs from elsewhere (`readNdjson`, the suite's log validation).
 */
export function parseLogLine(text: string): Envelope | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON (${(error as Error).message})`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an event envelope: not a JSON object";
  const { v, run, seq, at, type, data } = value as Record<string, unknown>;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) return "not an event envelope: seq is not a positive integer";
  if (typeof type !== "string") return "not an event envelope: type is not a string";
  if (typeof data !== "object" || data === null || Array.isArray(data)) return "not an event envelope: data is not an object";
  if (typeof v !== "number" || typeof run !== "string" || typeof at !== "string") return "not an event envelope: v, run or at is missing";
  return value as Envelope;
}
