// Reading event data defensively: the views render logs from any writer, newer and broken ones
// included, and a field of the wrong type must never throw. Every string read here is made safe
// for a terminal (render/terminal-text.ts): what an event holds came from a task, an agent, a
// tool or a log Baton did not write.
import { visibleText } from "./terminal-text.ts";

export type Data = Record<string, unknown>;

/** A string field for one line of output: controls (newlines too) shown as escapes. "" for anything else. */
export const text = (value: unknown): string => (typeof value === "string" ? visibleText(value) : "");

/** A string field laid out over lines (a message body): newlines kept, other controls shown as escapes. */
export const lines = (value: unknown): string => (typeof value === "string" ? visibleText(value, { keepNewlines: true }) : "");

export const num = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) ? value : undefined);

export const record = (value: unknown): Data => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : {});

/** The first line of a string field, cut at `max` characters with an ellipsis, controls shown as escapes. */
export function firstLine(value: unknown, max: number): string {
  const line = (typeof value === "string" ? value : "").split("\n")[0] ?? "";
  return visibleText(line.length > max ? `${line.slice(0, max)}…` : line);
}
