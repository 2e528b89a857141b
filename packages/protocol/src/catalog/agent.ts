import { z } from "zod";
import { defineEvent, errorInfoSchema, usageSchema } from "./shared.ts";

const session = z.string().min(1);
const turn = z.number().int().min(1);

export const agentStarted = defineEvent(
  "agent.started",
  "An agent session is ready: which agent, which version and model it reports, what it can do.",
  z.looseObject({
    session,
    agent: z.string(),
    agent_version: z.string().optional(),
    model: z.string().optional(),
    protocol_version: z.number().int(),
    capabilities: z.record(z.string(), z.unknown()).optional(),
  }),
);

export const turnStarted = defineEvent(
  "turn.started",
  "A prompt was sent to the agent; `reason` says why.",
  z.looseObject({
    session,
    turn,
    /** `fix`: a validation fix prompt (after `validation.fix_requested`). */
    reason: z.enum(["task", "fix", "notice", "handback", "reminder", "resend", "steer"]),
  }),
);

export const agentDelta = defineEvent(
  "agent.delta",
  "Ephemeral: text arriving while the agent streams. Never logged, no seq.",
  z.looseObject({ session, kind: z.enum(["text", "thought"]), text: z.string() }),
  { ephemeral: true },
);

export const agentMessage = defineEvent(
  "agent.message",
  "The complete text of one agent message.",
  z.looseObject({ session, turn, text: z.string() }),
);

export const agentThought = defineEvent(
  "agent.thought",
  "The complete text of one reasoning block.",
  z.looseObject({ session, turn, text: z.string() }),
);

export const toolStarted = defineEvent(
  "tool.started",
  "The agent started a tool call. `call` pairs it with its `tool.completed`.",
  z.looseObject({
    session,
    call: z.string().min(1),
    tool: z.string(),
    kind: z.string(),
    title: z.string().optional(),
    input: z.unknown().optional(),
    target: z.string().optional(),
    /** The call that started this one, where the agent says so (a subagent's calls name the call running the subagent). */
    parent_call: z.string().optional(),
  }),
);

export const toolCompleted = defineEvent(
  "tool.completed",
  "A tool call finished. Its output is summarized by a preview; the whole of it lives in the trace store.",
  z.looseObject({
    session,
    call: z.string().min(1),
    tool: z.string(),
    status: z.enum(["completed", "failed", "cancelled"]),
    is_error: z.boolean(),
    duration_ms: z.number().int().min(0),
    exit_code: z.number().int().optional(),
    timed_out: z.boolean().optional(),
    /** Length of the output as the agent reported it, before Baton's cut (the agent may have cut it already). */
    output_chars: z.number().int().min(0),
    /** The first 200 characters of the output, redacted. */
    preview: z.string().optional(),
    /** The trace-store file holding the whole output (capped, redacted), relative to the run's directory; absent when there was no output or it could not be written. */
    output_file: z.string().optional(),
    /** Why Baton ended a call that did not complete: `interrupted` when the process writing the run died during it. */
    error: errorInfoSchema.optional(),
  }),
);

export const planUpdated = defineEvent(
  "plan.updated",
  "The agent's whole plan, never a diff.",
  z.looseObject({
    session,
    entries: z.array(
      z.looseObject({
        content: z.string(),
        status: z.string(),
        priority: z.string().optional(),
      }),
    ),
  }),
);

export const permissionRequested = defineEvent(
  "permission.requested",
  "The agent asked for permission to run a tool call. `awaiting: \"person\"`: a rule says `ask`, and the call waits for a person's answer (`baton allow|deny`, the API) for at most `timeout_ms` (absent: no timeout), then is denied.",
  z.looseObject({
    session,
    call: z.string().min(1),
    tool: z.string(),
    options: z.array(z.looseObject({ id: z.string(), kind: z.string(), name: z.string() })),
    awaiting: z.literal("person").optional(),
    rule: z.string().optional(),
    timeout_ms: z.number().int().min(0).optional(),
  }),
);

export const permissionResolved = defineEvent(
  "permission.resolved",
  "A permission request was answered; `rule` names what decided it. `by: \"human\"`: a person answered, `who` names them (the OS user, or the name the API client gave); an unanswered question is denied by `rule` `ask:timeout`.",
  z.looseObject({
    session,
    call: z.string().min(1),
    decision: z.string(),
    option_id: z.string().optional(),
    by: z.enum(["policy", "human"]),
    rule: z.string(),
    who: z.string().optional(),
    reason: z.string().optional(),
    always_for_run: z.boolean().optional(),
  }),
);

export const usageUpdated = defineEvent(
  "usage.updated",
  "Usage the agent reported. `basis` says whether the figures add to earlier ones (delta) or replace them (total). Context occupancy is not spend.",
  z.looseObject({
    session,
    basis: z.enum(["delta", "total"]),
    input_tokens: z.number().int().min(0).optional(),
    output_tokens: z.number().int().min(0).optional(),
    cache_read_tokens: z.number().int().min(0).optional(),
    cache_write_tokens: z.number().int().min(0).optional(),
    cost_usd: z.number().min(0).optional(),
    context_used: z.number().int().min(0).optional(),
    context_size: z.number().int().min(0).optional(),
  }),
);

export const turnCompleted = defineEvent(
  "turn.completed",
  "The agent finished a turn. `stop_reason` is the agent's, or `error` with `error` set.",
  z.looseObject({
    session,
    turn,
    stop_reason: z.string(),
    duration_ms: z.number().int().min(0),
    usage: usageSchema.optional(),
    error: errorInfoSchema.optional(),
  }),
);

export const agentFinished = defineEvent(
  "agent.finished",
  "The agent's session ended and its process exited.",
  z.looseObject({
    session: session.optional(),
    turns: z.number().int().min(0),
    usage: usageSchema,
    exit_code: z.number().int().optional(),
    signal: z.string().optional(),
  }),
);

export const runnerEvent = defineEvent(
  "runner.event",
  "Something the agent sent that Baton does not translate. Only its native type is kept, never its payload.",
  z.looseObject({ session: session.optional(), native_type: z.string() }),
);
