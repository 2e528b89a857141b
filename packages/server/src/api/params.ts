// The API's limits and the helpers of its messages; the parameters themselves are checked by
// the routes' schemas (contract/fields.ts).
import type { RunStatus } from "@baton/protocol/core";
import { apiError } from "../http/api-errors.ts";

export const RUN_STATUSES = ["created", "running", "paused", "succeeded", "stopped", "failed", "cancelled"] as const satisfies readonly RunStatus[];

/** Events per page of `GET /api/runs/{ref}/events` when no limit is given, and the most one may ask. */
export const DEFAULT_EVENTS_LIMIT = 1000;
export const MAX_EVENTS_LIMIT = 10_000;
/** Runs per `GET /api/runs` when no limit is given, and the most one may ask. */
export const DEFAULT_RUNS_LIMIT = 100;
export const MAX_RUNS_LIMIT = 10_000;

export function parseLimit(text: string | undefined, fallback: number, max: number): number {
  if (text === undefined) return fallback;
  const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= 1 && value <= max)) throw apiError("bad_request", `limit must be an integer from 1 to ${max}, not "${printable(text)}"`);
  return value;
}

/** A value quoted in an error message: control characters escaped, cut to a readable length. */
export function printable(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 80 ? `${escaped.slice(0, 79)}…` : escaped;
}
