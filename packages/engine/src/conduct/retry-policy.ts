import type { ProviderErrorClass } from "../provider/classify.ts";

/** Waits between resends of a failed turn, by class (`[retry]` in config). */
export type RetrySchedule = {
  /** For `rate_limited` and `unreachable`. */
  rateLimitedMs: readonly number[];
  overloadedMs: readonly number[];
  /** Up to this share of each wait is added at random. */
  jitter: number;
  /** A provider asking for a longer wait than this is not waited for. */
  maxRetryAfterMs: number;
};

export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = {
  rateLimitedMs: [10_000, 20_000, 40_000],
  overloadedMs: [10_000, 20_000, 30_000, 40_000, 50_000, 60_000],
  jitter: 0.25,
  maxRetryAfterMs: 120_000,
};

export type RetryDecision =
  | { resend: true; delayMs: number; attempt: number; maxAttempts: number }
  | { resend: false; why: string };

/**
 * Whether and when to send a failed turn again. `attempt` is the resend about to be made,
 * counting from 1 within its class. `quota`, `unauthorized` and `other` are never resent: a
 * wait does not clear them. A provider's `retry-after` replaces the schedule's wait (without
 * jitter), unless it asks for more than `maxRetryAfterMs`.
 */
export function decideRetry(schedule: RetrySchedule, errorClass: ProviderErrorClass, attempt: number, retryAfterMs: number | undefined, random: () => number = Math.random): RetryDecision {
  const waits = errorClass === "overloaded" ? schedule.overloadedMs : errorClass === "rate_limited" || errorClass === "unreachable" ? schedule.rateLimitedMs : undefined;
  if (waits === undefined) return { resend: false, why: `a ${errorClass} failure is not cleared by waiting` };
  if (attempt > waits.length) return { resend: false, why: `resent ${waits.length} times already` };
  if (retryAfterMs !== undefined) {
    if (retryAfterMs > schedule.maxRetryAfterMs) return { resend: false, why: `the provider asked to wait ${Math.round(retryAfterMs / 1000)} s, more than ${Math.round(schedule.maxRetryAfterMs / 1000)} s` };
    return { resend: true, delayMs: Math.round(retryAfterMs), attempt, maxAttempts: waits.length };
  }
  const base = waits[attempt - 1] ?? 0;
  return { resend: true, delayMs: Math.round(base + base * schedule.jitter * random()), attempt, maxAttempts: waits.length };
}
