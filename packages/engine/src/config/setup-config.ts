import { z } from "zod";
import { MAX_TIMEOUT_MS } from "./bounds.ts";
import { durationSchema } from "./duration-schema.ts";
import { definedFields } from "@baton/protocol/core";

/** A setup command gets this long unless its step says otherwise: an install on a cold cache. */
export const DEFAULT_SETUP_TIMEOUT_MS = 10 * 60_000;

const commandText = z.string().trim().min(1, "a command must not be empty");

/** One setup step: a shell command, with a name for the views and a timeout of its own. */
export const setupStepSchema = z.strictObject({
  name: z.string().min(1).optional(),
  command: commandText,
  timeout: durationSchema({ maxMs: MAX_TIMEOUT_MS, positive: true }).optional(),
});
export type SetupStep = z.infer<typeof setupStepSchema>;

/**
 * `[setup]`: commands run in each fresh workspace (the run's worktree, every fan-out branch's)
 * before its first agent stage. `commands` first, then `[[setup.steps]]`, in order.
 */
export const setupConfigSchema = z
  .strictObject({
    commands: z.array(commandText).default([]),
    steps: z.array(setupStepSchema).default([]),
    /** The timeout of each command that has none of its own. */
    timeout: durationSchema({ maxMs: MAX_TIMEOUT_MS, positive: true }).default(DEFAULT_SETUP_TIMEOUT_MS),
  })
  .prefault({});
export type SetupConfig = z.infer<typeof setupConfigSchema>;

/** Every setup command in the order it runs, each with its timeout. */
export function setupSteps(config: SetupConfig): { name?: string; command: string; timeoutMs: number }[] {
  return [
    ...config.commands.map((command) => ({ command, timeoutMs: config.timeout })),
    ...config.steps.map((step) => ({ ...definedFields({ name: step.name }), command: step.command, timeoutMs: step.timeout ?? config.timeout })),
  ];
}
