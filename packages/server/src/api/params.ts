import type { RunStatus } from "@baton/protocol/core";
import { apiError } from "../http/api-errors.ts";

/**
 * What a run reference in a path may look like: a run number, a run id, or an id prefix (the
 * CLI's forms). Anything else, `..`, slashes (also percent-encoded), NUL, is refused before
 * it reaches the store: refs are looked up in the index, never used as paths.
 */
const REF_PATTERN = /^(?:\d{1,15}|(?:run_)?[0-9A-Za-z]{1,26})$/;

/**
 * A tool call id as a trace-store file name (`outputs/<call>.txt`): letters, digits, `_`, `-`,
 * `.` (not first, never `..`), at most 128 characters. No separator, no NUL, no dot segment.
 */
const CALL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export const RUN_STATUSES: readonly RunStatus[] = ["created", "running", "paused", "succeeded", "stopped", "failed", "cancelled"];

/** Events per page of `GET /api/runs/{ref}/events` when no limit is given, and the most one may ask. */
export const DEFAULT_EVENTS_LIMIT = 1000;
export const MAX_EVENTS_LIMIT = 10_000;
/** Runs per `GET /api/runs` when no limit is given, and the most one may ask. */
export const DEFAULT_RUNS_LIMIT = 100;
export const MAX_RUNS_LIMIT = 10_000;

export function parseRef(ref: string): string {
  if (!REF_PATTERN.test(ref)) throw apiError("invalid_ref", `"${printable(ref)}" is not a run number or id`, "use a run number (12) or id (run_…)");
  return ref;
}

export function parseCallId(call: string): string {
  if (!CALL_PATTERN.test(call) || call.includes("..")) {
    throw apiError("invalid_call", `"${printable(call)}" is not a tool call id`, "use the call id of a tool.completed event");
  }
  return call;
}

/** A cursor (seq or pos): a non-negative integer; `undefined` stays undefined. */
export function parseCursor(text: string | undefined, what: string): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value)) throw apiError("invalid_cursor", `${what} must be a non-negative integer, not "${printable(text)}"`, "pass the last id you received, or 0");
  return value;
}

export function parseLimit(text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= max)) throw apiError("bad_request", `limit must be an integer from 1 to ${max}, not "${printable(text)}"`);
  return value;
}

export function parseStatus(text: string | undefined): RunStatus | undefined {
  if (text === undefined) return undefined;
  if (!(RUN_STATUSES as readonly string[]).includes(text)) {
    throw apiError("bad_request", `status must be one of ${RUN_STATUSES.join(", ")}, not "${printable(text)}"`);
  }
  return text as RunStatus;
}

/** A value quoted in an error message: control characters escaped, cut to a readable length. */
export function printable(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 80 ? `${escaped.slice(0, 79)}…` : escaped;
}
