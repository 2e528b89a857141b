// The contract of a decision at a gate (gate-routes.ts): approve, reject, answer.

import { createRoute, z } from "@hono/zod-openapi";
import { jsonBodyGate } from "../json-body.ts";
import { runSummarySchema } from "./components.ts";
import { byField, refParam, textField, viaField } from "./fields.ts";
import { BODY_ERRORS, errorResponses, json } from "./responses.ts";

export type DecisionKind = "approve" | "reject" | "answer";

/** Longest answer and comment taken (a gate's answer is a label or a paragraph). */
const MAX_DECISION_TEXT = 10_000;

const DESCRIPTION =
  "Checked against the run's events first: a run that is not paused at a gate (409 not_paused), or an answer that fits no option (422 invalid_answer), changes nothing. Then `baton approve|reject|answer` records the decision (by, via, comment) and resumes the run in a detached process: follow the run's stream for the rest.";

const SUMMARIES: Record<DecisionKind, string> = {
  approve: "Approve the gate a paused workflow run waits at (its first option that is not a way back), and resume the run",
  reject: "Reject the gate a paused workflow run waits at (its way back, or the gate fails), and resume the run",
  answer: "Answer the gate a paused workflow run waits at with an option's label or key, or free text at a freeform gate, and resume the run",
};

const comment = textField("comment", { max: MAX_DECISION_TEXT, description: "recorded with the decision" }).optional();
const by = byField("who decided (default: the user the server runs as)").optional();

/** approve and reject take the same optional body; answer needs its `answer`. */
const decisionBody = z.object({ via: viaField.optional(), comment, by });
const answerBody = z.object({ via: viaField.optional(), answer: textField("answer", { max: MAX_DECISION_TEXT, description: "an option's label or key, or free text at a freeform gate" }), comment, by });

function decisionRoute<K extends DecisionKind, B extends z.ZodType>(kind: K, body: B, required: boolean) {
  return createRoute({
    method: "post",
    path: `/api/runs/{ref}/${kind}` as `/api/runs/{ref}/${K}`,
    operationId: `${kind}Gate` as const,
    summary: SUMMARIES[kind],
    description: DESCRIPTION,
    middleware: [jsonBodyGate({ optional: !required })],
    request: { params: z.object({ ref: refParam }), body: { required, content: json(body) } },
    responses: {
      202: { description: "recorded: the run is resuming", content: json(z.object({ run: runSummarySchema })) },
      ...errorResponses([...BODY_ERRORS, 404, 409, 422, 504], {
        409: "the run is not paused at a gate (not_paused)",
        422: "the answer fits no option of the gate (invalid_answer), or the CLI refused the resume (resume_rejected, its one-line error)",
        504: "the resume did not start in time (start_timeout)",
      }),
    },
  });
}

export const approveRoute = decisionRoute("approve", decisionBody, false);
export const rejectRoute = decisionRoute("reject", decisionBody, false);
export const answerRoute = decisionRoute("answer", answerBody, true);
