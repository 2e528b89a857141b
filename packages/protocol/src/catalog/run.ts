import { z } from "zod";
import { providerErrorClassSchema } from "./limits.ts";
import { defineEvent, errorInfoSchema, usageSchema } from "./shared.ts";

export const runCreated = defineEvent(
  "run.created",
  "A run was created: what it will do, with which agent, in which repository.",
  z.looseObject({
    number: z.number().int().min(1),
    task: z.string(),
    agent: z.string(),
    model: z.string().optional(),
    /** The workflow's name (`single` for a plain `baton run TASK`). */
    workflow: z.string().optional(),
    /** For a run forked from another's checkpoint (`baton fork`): that run and stage visit. */
    origin: z.looseObject({ run: z.string(), number: z.number().int().min(1).optional(), stage: z.string(), visit: z.number().int().min(1), commit: z.string().optional() }).optional(),
    repo: z.looseObject({
      root: z.string(),
      branch: z.string().optional(),
      sha: z.string().optional(),
      dirty: z.boolean(),
    }),
    limits: z.record(z.string(), z.number()).optional(),
    labels: z.record(z.string(), z.string()).optional(),
  }),
);

export const runStarted = defineEvent(
  "run.started",
  "A process took the run's log and started (or resumed) work on it.",
  z.looseObject({
    attempt: z.number().int().min(1),
    resumed: z.boolean(),
    pid: z.number().int(),
    host: z.string(),
  }),
);

export const runPaused = defineEvent(
  "run.paused",
  "The run stopped to wait for a human; it can be resumed.",
  z.looseObject({ reason: z.string(), gate: z.string().optional() }),
);

export const runCompleted = defineEvent(
  "run.completed",
  "The run ended: its work is done (succeeded) or it was stopped (stopped) at a limit (`stopped_by` time, cost, tokens, tool_calls, requests, repeats) or by the model provider (`stopped_by` provider, with `provider_error`), its work kept.",
  z.looseObject({
    status: z.enum(["succeeded", "stopped"]),
    stopped_by: z.string().optional(),
    provider_error: providerErrorClassSchema.optional(),
    /** Whether the agent answered the hand-back prompt with a turn that ended well. */
    handed_back: z.boolean().optional(),
    usage: usageSchema,
    cost_usd: z.number().min(0).optional(),
    active_ms: z.number().int().min(0),
    duration_ms: z.number().int().min(0),
    commit: z.string().optional(),
  }),
);

export const runFailed = defineEvent(
  "run.failed",
  "The run ended in failure. `error.code` is stable; `interrupted` means its writer died.",
  z.looseObject({
    error: errorInfoSchema,
    provider_error: providerErrorClassSchema.optional(),
    usage: usageSchema.optional(),
    active_ms: z.number().int().min(0).optional(),
  }),
);

export const runCancelled = defineEvent(
  "run.cancelled",
  "The run was cancelled before it ended by itself.",
  z.looseObject({ by: z.string(), reason: z.string().optional() }),
);

export const log = defineEvent(
  "log",
  "A diagnostic message.",
  z.looseObject({
    level: z.enum(["debug", "info", "warn", "error"]),
    code: z.string().optional(),
    message: z.string(),
  }),
);
