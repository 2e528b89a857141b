import { z } from "zod";
import { formatDuration, parseDuration } from "./duration.ts";

/** How to write a duration, for the messages that refuse one. */
export const DURATION_FORM = 'write it like "90s", "30m" or "1h30m" (a bare number is seconds)';

/**
 * A duration in config: a string like "30m", or a number of seconds. Parses to milliseconds,
 * from 0 (above it when `positive`) up to `maxMs`, which `longest` explains: the timer it
 * sets must be able to wait it.
 */
export function durationSchema(options: { maxMs: number; positive?: boolean; longest?: string }) {
  const longest = options.longest ?? "the longest Baton's timers can wait";
  return z.union([z.number().min(0), z.string()]).transform((value, ctx) => {
    const ms = typeof value === "number" ? Math.round(value * 1_000) : parseDuration(value);
    const shown = typeof value === "number" ? String(value) : `"${value}"`;
    if (ms === undefined || !Number.isFinite(ms)) {
      ctx.addIssue({ code: "custom", message: `${shown} is not a duration; ${DURATION_FORM}` });
      return z.NEVER;
    }
    if (options.positive === true && ms <= 0) {
      ctx.addIssue({ code: "custom", message: `${shown} is no time at all; give a duration above zero, like "30m"` });
      return z.NEVER;
    }
    if (ms > options.maxMs) {
      ctx.addIssue({ code: "custom", message: `${shown} is longer than ${formatDuration(options.maxMs)}, ${longest}` });
      return z.NEVER;
    }
    return ms;
  });
}
