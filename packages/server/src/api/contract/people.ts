// The contract of people's requests to a running run (people-routes.ts): steer it, answer a
// permission question, reply to a question the agent asked.

import { createRoute, z } from "@hono/zod-openapi";
import { jsonBodyGate } from "../json-body.ts";
import { runSummarySchema } from "./components.ts";
import { booleanField, byField, callParam, choiceField, questionParam, refParam, textField, viaField } from "./fields.ts";
import { BODY_ERRORS, errorResponses, json } from "./responses.ts";

/** Longest text the API takes for one input; the run's own `[input] max_chars` is checked by the run (input.rejected). */
const MAX_INPUT_BODY_CHARS = 100_000;

const by = byField("who, as recorded (default: api)").optional();

export const sendInputRoute = createRoute({
  method: "post",
  path: "/api/runs/{ref}/input",
  operationId: "sendInput",
  summary: "Send text to the running run's agent (baton steer)",
  description:
    "The run records input.queued (or input.rejected: too_long past [input] max_chars after redaction, too_many waiting), then input.delivered: mid_turn to an agent that takes notices, next_turn otherwise. A run that is not running is 409 and nothing is left for it.",
  middleware: [jsonBodyGate()],
  request: { params: z.object({ ref: refParam }), body: { required: true, content: json(z.object({ text: textField("text", { max: MAX_INPUT_BODY_CHARS }), by })) } },
  responses: {
    202: {
      description: "left for the run; follow its stream for input.queued",
      content: json(z.object({ input: z.object({ id: z.string(), by: z.string() }), run: runSummarySchema })),
    },
    ...errorResponses([...BODY_ERRORS, 404, 409], { 409: "the run is not running (not_running, run_ended)" }),
  },
});

const PERMISSION_DESCRIPTION =
  "Checked against the run's events first: the run must be running (409 not_running, run_ended) and the call must wait for a person (404 unknown_call; 409 answer_conflict once it was answered, naming the answer). The first answer wins. Follow the run's stream for permission.resolved (by: human, who).";

const optionId = textField("option_id", { max: 200, description: "one of the options the agent offered, of the answer's kind" }).optional();

function permissionRoute<A extends "allow" | "deny", B extends z.ZodType>(action: A, body: B) {
  return createRoute({
    method: "post",
    path: `/api/runs/{ref}/permissions/{call}/${action}` as `/api/runs/{ref}/permissions/{call}/${A}`,
    operationId: `${action}Permission` as const,
    summary: action === "allow" ? "Allow a tool call a permission rule asks a person about" : "Deny a tool call a permission rule asks a person about",
    description: PERMISSION_DESCRIPTION,
    middleware: [jsonBodyGate({ optional: true })],
    request: { params: z.object({ ref: refParam, call: callParam }), body: { required: false, content: json(body) } },
    responses: {
      202: {
        description: "answer left for the run",
        content: json(z.object({ answer: z.object({ call: z.string(), action: z.enum(["allow", "deny"]), by: z.string() }), run: runSummarySchema })),
      },
      ...errorResponses([...BODY_ERRORS, 404, 409], {
        404: "no such run, or no question waits on the call (run_not_found, unknown_call)",
        409: "the run is not running, or the call was answered already (not_running, run_ended, answer_conflict)",
      }),
    },
  });
}

export const allowRoute = permissionRoute(
  "allow",
  z.object({ via: viaField.optional(), by, option_id: optionId, always_for_run: booleanField("always_for_run", "also allow later calls of the same kind and target in this run").optional() }),
);
export const denyRoute = permissionRoute("deny", z.object({ via: viaField.optional(), by, option_id: optionId, reason: textField("reason", { max: 2_000 }).optional() }));

/** A reply's values, by field name: text, a number, true or false, or a list of option values. */
const replyContent = z
  .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]), { error: '"content" must be an object of field names to values' })
  .openapi({ description: "field name to value (text, number, boolean, or a list of option values): accept only" });

export const replyRoute = createRoute({
  method: "post",
  path: "/api/runs/{ref}/questions/{question}",
  operationId: "replyToQuestion",
  summary: "Answer a question the agent asked (ACP elicitation, baton reply)",
  description:
    "Checked against the run's events first: the run must be running (409 not_running, run_ended), the question must wait for a person (404 unknown_question; 409 answer_conflict once it was answered, naming the answer), and an accept's content must fill the form as question.asked's fields say (422 invalid_answer, naming the field). The first answer wins. Follow the run's stream for question.answered (by: human, who).",
  middleware: [jsonBodyGate()],
  request: {
    params: z.object({ ref: refParam, question: questionParam }),
    body: {
      required: true,
      content: json(
        z.object({
          action: choiceField("action", ["accept", "decline", "cancel"], { max: 8, message: '"action" must be one of accept, decline, cancel', description: "what the person does (default: accept)" }).optional(),
          content: replyContent.optional(),
          reason: textField("reason", { max: 2_000 }).optional(),
          by,
          via: viaField.optional(),
        }),
      ),
    },
  },
  responses: {
    202: {
      description: "reply left for the run",
      content: json(z.object({ reply: z.object({ question: z.string(), action: z.enum(["accept", "decline", "cancel"]), by: z.string() }), run: runSummarySchema })),
    },
    ...errorResponses([...BODY_ERRORS, 404, 409, 422], {
      404: "no such run, or no question of that id waits (run_not_found, unknown_question)",
      409: "the run is not running, or the question was answered already (not_running, run_ended, answer_conflict)",
      422: "the content does not fill the form (invalid_answer, naming the field)",
    }),
  },
});
