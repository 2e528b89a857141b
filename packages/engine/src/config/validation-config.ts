import { z } from "zod";
import { MAX_TIMEOUT_MS } from "./bounds.ts";
import { durationSchema } from "./duration-schema.ts";

/** A validation command gets this long unless the config says otherwise: a test suite. */
export const DEFAULT_VALIDATION_TIMEOUT_MS = 10 * 60_000;
/** Fix prompts sent before a run fails `validation_failed`: two chances, as the task pipeline gives. */
export const DEFAULT_MAX_FIX_ROUNDS = 2;
/** More fix rounds than this is a loop, not a fix. */
export const MAX_FIX_ROUNDS = 20;

/**
 * `[validation]`: commands that must pass after the agent's work (`--validate CMD` adds more).
 * A failing one goes back to the agent as a fix prompt, up to `max_fix_rounds` times.
 */
export const validationConfigSchema = z
  .strictObject({
    commands: z.array(z.string().trim().min(1, "a command must not be empty")).default([]),
    timeout: durationSchema({ maxMs: MAX_TIMEOUT_MS, positive: true }).default(DEFAULT_VALIDATION_TIMEOUT_MS),
    max_fix_rounds: z.number().int().min(0).max(MAX_FIX_ROUNDS).default(DEFAULT_MAX_FIX_ROUNDS),
  })
  .prefault({});
export type ValidationConfig = z.infer<typeof validationConfigSchema>;
