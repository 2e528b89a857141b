// The bounds of the numbers a user gives Baton, on the command line and in config.toml alike:
// both check against these, so a value one accepts the other accepts too.

/**
 * The longest delay Node's timers take: 2^31 - 1 ms (24 days 20 h). A longer one is not
 * refused: it fires after 1 ms, with a TimeoutOverflowWarning (Node's timers documentation).
 */
export const TIMER_MAX_MS = 2 ** 31 - 1;

/**
 * The longest run timeout, 596h31m23s: the limit watch sets its last timer 1 ms past the
 * timeout, and a whole number of seconds reads back as it is written.
 */
export const MAX_TIMEOUT_MS = Math.floor((TIMER_MAX_MS - 1) / 1_000) * 1_000;

/** The longest wait before a resend, 298h15m41s: jitter may add as much again, and the sum must fit a timer. */
export const MAX_RETRY_WAIT_MS = Math.floor(TIMER_MAX_MS / 2 / 1_000) * 1_000;

/** Counts (tokens, tool calls) are exact up to here; past it a number is not the one written. */
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;

/** A loop is the same call this many times in a row: 2 is the least that repeats; past 100 it has long been spent. */
export const REPEATS_RANGE = { min: 2, max: 100 } as const;
