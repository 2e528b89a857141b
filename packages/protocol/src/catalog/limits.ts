import { z } from "zod";
import { defineEvent } from "./shared.ts";

const session = z.string().min(1);
const turn = z.number().int().min(1);

/** The limits Baton enforces on a run: wall-clock time, cost, tokens, tool calls, model requests (counted at the inference proxy). */
export const limitNameSchema = z.enum(["time", "cost", "tokens", "tool_calls", "requests"]);

/** How a failed turn's provider failure is sorted; `other` is everything that is not known. */
export const providerErrorClassSchema = z.enum(["rate_limited", "overloaded", "unreachable", "quota", "unauthorized", "other"]);

/** A run's limits as configured (`timeout_ms`, `cost_usd`, `tokens`, `tool_calls`): absent means no limit of that kind. */
const limitsSchema = z.record(z.string(), z.number().min(0));

export const budgetUpdated = defineEvent(
  "budget.updated",
  "What the run has used so far against its limits, after each turn and each tool call. `fraction` is the most used limit's share (absent without limits).",
  z.looseObject({
    tokens: z.number().int().min(0),
    cost_usd: z.number().min(0).optional(),
    tool_calls: z.number().int().min(0),
    elapsed_ms: z.number().int().min(0),
    limits: limitsSchema,
    limit: limitNameSchema.optional(),
    fraction: z.number().min(0).optional(),
  }),
);

export const limitWarning = defineEvent(
  "limit.warning",
  "The most used limit passed 60% or 80%: `fraction` is the share used, `threshold` the mark passed; `notified` says whether the agent was told.",
  z.looseObject({
    limit: limitNameSchema,
    used: z.number().min(0),
    max: z.number().min(0),
    fraction: z.number().min(0),
    threshold: z.number().min(0).max(1),
    notified: z.boolean(),
  }),
);

export const limitReached = defineEvent(
  "limit.reached",
  "A limit was reached: at 95% the agent is asked to hand back (`handback`); at 100% the session is cancelled (`cancel`), or, between turns, the run stops (`stop`).",
  z.looseObject({
    limit: limitNameSchema,
    used: z.number().min(0),
    max: z.number().min(0),
    fraction: z.number().min(0),
    action: z.enum(["handback", "cancel", "stop"]),
  }),
);

export const providerError = defineEvent(
  "provider.error",
  "A turn failed on the model provider, sorted into a class from the agent's error or last words. `source` says where the words came from; `message` is redacted.",
  z.looseObject({
    session: session.optional(),
    turn: turn.optional(),
    class: providerErrorClassSchema,
    status: z.number().int().optional(),
    retry_after_ms: z.number().int().min(0).optional(),
    source: z.enum(["error", "message", "stderr"]),
    message: z.string(),
  }),
);

export const retryScheduled = defineEvent(
  "retry.scheduled",
  "The failed turn will be sent again on the same session after `delay_ms` (`attempt` counts from 1 within the class's schedule).",
  z.looseObject({
    what: z.enum(["turn"]),
    class: providerErrorClassSchema,
    attempt: z.number().int().min(1),
    max_attempts: z.number().int().min(1),
    delay_ms: z.number().int().min(0),
    retry_after_ms: z.number().int().min(0).optional(),
  }),
);

export const modelSwitched = defineEvent(
  "model.switched",
  "The session was switched to the fallback model after an overload outlasted its waits; `model` is what the agent then reports.",
  z.looseObject({
    session,
    from: z.string().optional(),
    to: z.string(),
    model: z.string().optional(),
    reason: z.string(),
  }),
);

export const stallDetected = defineEvent(
  "stall.detected",
  "Nothing arrived from the agent for `idle_ms` while no tool call ran: the turn is cancelled and sent again (`resend`) or the run fails (`fail`).",
  z.looseObject({
    session,
    turn,
    idle_ms: z.number().int().min(0),
    action: z.enum(["resend", "fail"]),
  }),
);

export const repeatDetected = defineEvent(
  "repeat.detected",
  "The agent made the same tool call (tool, input and result) `count` times in a row: it is told (`notice`), then asked to hand back (`handback`).",
  z.looseObject({
    session,
    tool: z.string(),
    count: z.number().int().min(1),
    action: z.enum(["notice", "handback"]),
    notified: z.boolean().optional(),
  }),
);

export const handbackRequested = defineEvent(
  "handback.requested",
  "The agent is asked to stop and hand back what it has. `reason` is `limit`, `provider` or `repeat`; `limit` or `class` says which.",
  z.looseObject({
    reason: z.enum(["limit", "provider", "repeat"]),
    limit: limitNameSchema.optional(),
    class: providerErrorClassSchema.optional(),
  }),
);
