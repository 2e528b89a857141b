import { z } from "zod";
import { defineEvent } from "./shared.ts";

const session = z.string().min(1);

/** An input's id, as the person's request named it (`in_…`). */
const inputId = z.string().min(1).max(100);

/** Why Baton refused a person's input: the run ended before it was delivered, it was too long, or too many wait already. */
export const inputRejectionSchema = z.enum(["not_running", "too_long", "too_many"]);

export const inputQueued = defineEvent(
  "input.queued",
  "A person's text for the running agent was taken (`baton steer`, the API): redacted and capped, it waits for delivery.",
  z.looseObject({
    id: inputId,
    by: z.string().min(1),
    text: z.string(),
    chars: z.number().int().min(0),
  }),
);

export const inputDelivered = defineEvent(
  "input.delivered",
  "A queued input reached the agent: `mid_turn` as a prompt beside the running turn (agents that take notices), `next_turn` as a turn of its own at the turn's end, `with_prompt` with the next agent stage's prompt.",
  z.looseObject({
    id: inputId,
    how: z.enum(["mid_turn", "next_turn", "with_prompt"]),
    session: z.string().min(1).optional(),
    turn: z.number().int().min(1).optional(),
  }),
);

export const inputRejected = defineEvent(
  "input.rejected",
  "A person's input was not delivered: `code` says why (`not_running`: the run or its agent ended first; `too_long`; `too_many` waiting).",
  z.looseObject({
    id: inputId,
    code: inputRejectionSchema,
    message: z.string().optional(),
  }),
);

/** A question's id, as Baton named it when the agent asked (`q_…`). */
const questionId = z.string().min(1).max(100);

/** A value a person may give a field of a question's form: ACP's elicitation content values. */
export const questionValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

/** One field of a question's form, as Baton read it from the agent's requested schema. */
export const questionFieldSchema = z.looseObject({
  name: z.string().min(1),
  /** `string`, `number`, `integer`, `boolean`, `array` (several of `options`), or a type Baton cannot fill. */
  type: z.string().min(1),
  required: z.boolean(),
  title: z.string().optional(),
  description: z.string().optional(),
  /** The values a one-of (`string`) or several-of (`array`) field takes. */
  options: z.array(z.looseObject({ value: z.string(), title: z.string().optional(), description: z.string().optional() })).optional(),
  min: z.number().optional(),
  max: z.number().optional(),
  min_length: z.number().int().min(0).optional(),
  max_length: z.number().int().min(0).optional(),
  pattern: z.string().optional(),
  format: z.string().optional(),
  default: questionValueSchema.optional(),
});

export const questionAsked = defineEvent(
  "question.asked",
  "The agent asked the user a question through ACP elicitation (a form): `message`, and the `fields` to fill, each with its type, whether it is required and the values it takes. `awaiting: \"person\"`: it waits for a person's answer (`baton reply`, the API, the web run page, the TUI) for at most `timeout_ms` (absent: no timeout), then is declined; without it the question was answered at once (an unattended run, a form Baton cannot fill).",
  z.looseObject({
    session,
    id: questionId,
    /** The tool call the question belongs to, when the agent tied it to one. */
    call: z.string().min(1).optional(),
    mode: z.string().min(1),
    message: z.string(),
    fields: z.array(questionFieldSchema),
    awaiting: z.literal("person").optional(),
    timeout_ms: z.number().int().min(0).optional(),
  }),
);

export const questionAnswered = defineEvent(
  "question.answered",
  "A question was answered, and the agent told so: `accept` with the person's `content` (checked against the form's fields), `decline` or `cancel`. `by: \"human\"`: a person answered, `who` names them and `via` how; `by: \"policy\"`: `rule` says why Baton answered (`question:timeout`, `question:unattended`, `question:unsupported`, `question:turn-cancelled`, `interrupted`).",
  z.looseObject({
    session,
    id: questionId,
    /** The tool call the question belonged to, as `question.asked` named it. */
    call: z.string().min(1).optional(),
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), questionValueSchema).optional(),
    by: z.enum(["policy", "human"]),
    who: z.string().optional(),
    via: z.enum(["cli", "api", "web", "terminal"]).optional(),
    rule: z.string().optional(),
    reason: z.string().optional(),
  }),
);
