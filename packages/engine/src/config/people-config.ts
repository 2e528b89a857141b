import { z } from "zod";
import { DEFAULT_INPUT_LIMITS, INPUT_LIMIT_BOUNDS } from "../input/input-limits.ts";
import { TIMER_MAX_MS } from "./bounds.ts";
import { durationSchema } from "./duration-schema.ts";

/** The default `[permissions] ask_timeout`: a question nobody answers in 10 minutes is denied. */
export const DEFAULT_ASK_TIMEOUT = "10m";

/**
 * `[permissions] ask_timeout`: how long a question of an `ask` rule waits for a person before
 * the call is denied; `"none"` waits as long as it takes (refused for unattended runs).
 * Parses to milliseconds, or undefined for none.
 */
const askDuration = durationSchema({ maxMs: TIMER_MAX_MS, positive: true });
export const askTimeoutSchema = z
  .union([z.number(), z.string()])
  .transform((value, ctx): number | undefined => {
    if (value === "none") return undefined;
    const parsed = askDuration.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: `${issue.message}, or "none"` });
    return z.NEVER;
  })
  .prefault(DEFAULT_ASK_TIMEOUT);

/** `[input]`: the limits on what people send a running agent (`baton steer`, the API). */
export const inputConfigSchema = z
  .strictObject({
    /** Longest text of one input, in characters (after redaction). */
    max_chars: z.number().int().min(1).max(INPUT_LIMIT_BOUNDS.maxChars).default(DEFAULT_INPUT_LIMITS.maxChars),
    /** Most inputs waiting for delivery at once. */
    max_queued: z.number().int().min(1).max(INPUT_LIMIT_BOUNDS.maxQueued).default(DEFAULT_INPUT_LIMITS.maxQueued),
  })
  .prefault({});

/** The commented `[input]` section and the ask lines of `[permissions]` that `baton init` writes. */
export const INPUT_CONFIG_TEXT = `[input]
# What people send a running agent (baton steer, the API): the text is redacted, then refused
# (input.rejected) when longer than max_chars, or when max_queued inputs wait already.
max_chars = ${DEFAULT_INPUT_LIMITS.maxChars}
max_queued = ${DEFAULT_INPUT_LIMITS.maxQueued}
`;

export const ASK_CONFIG_TEXT = `# ask_timeout = "${DEFAULT_ASK_TIMEOUT}"  # how long a question of an "ask" rule waits for a person,
#                         # then the call is denied; "none": no timeout (refused with --yes)`;
