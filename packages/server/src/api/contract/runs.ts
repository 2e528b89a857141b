// The contract of the runs routes (runs-routes.ts): list, one run, its events, its tool
// outputs, start, cancel.

import { createRoute, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { apiError } from "../../http/api-errors.ts";
import { jsonBodyGate } from "../json-body.ts";
import { DEFAULT_EVENTS_LIMIT, DEFAULT_RUNS_LIMIT, MAX_EVENTS_LIMIT, MAX_RUNS_LIMIT, printable } from "../params.ts";
import { eventEnvelopeSchema, runSummarySchema } from "./components.ts";
import { booleanField, callParam, choiceField, cursorField, limitField, refParam, statusQuery, textField } from "./fields.ts";
import { BODY_ERRORS, errorResponses, json, runListAt } from "./responses.ts";

const AGENT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** A workflow name as `baton run --workflow` finds it in `.baton/workflows/`: no slash, no `.dot`/`.fabro` ending. */
const WORKFLOW_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const PATH_ENDING = /\.(dot|fabro)$/i;
/** Longest script path taken (the project's own paths are far shorter). */
const MAX_SCRIPT_PATH_CHARS = 4096;

const workflowMessage = (issue: { input?: unknown }) => `"workflow": ${typeof issue.input === "string" ? `"${printable(issue.input)}"` : "it"} is not a workflow name`;

const workflowField = z
  .string({ error: workflowMessage })
  .regex(WORKFLOW_NAME, { error: workflowMessage })
  .refine((name) => !PATH_ENDING.test(name), { error: workflowMessage })
  .openapi({ description: "walk this workflow of .baton/workflows/ (or the built-in single); a name, never a path (one ending in .dot or .fabro is refused)" });

const SCRIPT_MESSAGE = '"script" must be the script itself (a JSON array of steps, or {"turns": [[…], …]}) or the path of a file in the project';

const scriptField = z
  .union(
    [
      z.array(z.unknown()).openapi({ description: "the steps of one turn" }),
      z.record(z.string(), z.unknown()).openapi({ description: '{"turns": [[steps…], …]}, or with a workflow {"stages": {"id": script, …}}' }),
      z
        .string({ error: SCRIPT_MESSAGE })
        .min(1, { error: SCRIPT_MESSAGE })
        .max(MAX_SCRIPT_PATH_CHARS, { error: SCRIPT_MESSAGE })
        .refine((path) => path.trim().length > 0 && !path.includes("\0"), { error: SCRIPT_MESSAGE })
        .openapi({ description: "a file inside the project, relative to its root" }),
    ],
    { error: SCRIPT_MESSAGE },
  )
  .openapi({
    description:
      "The fake agent's script: the steps themselves, or a file inside the project. A path that leads outside the project, by .. or a symbolic link, is refused (400); errors about a file say where it goes wrong (line, column), never what it holds. The steps are checked by `baton run` (422).",
  });

/**
 * The rules between fields of a start, before the fields' own checks (as `baton run` reads
 * them): `auto_approve` needs a `workflow`, and `task` is required without one (a workflow's
 * goal may be its task).
 */
const startRunRules: MiddlewareHandler = async (c, next) => {
  const body = (await c.req.json()) as Record<string, unknown>;
  if (body["auto_approve"] === true && body["workflow"] === undefined) throw apiError("bad_request", '"auto_approve" needs a "workflow"', "name the workflow whose gates it answers");
  if (body["task"] === undefined && body["workflow"] === undefined) throw apiError("bad_request", '"task" is required');
  await next();
};

export const startRunBodySchema = z.object({
  script: scriptField.optional(),
  workflow: workflowField.optional(),
  auto_approve: booleanField("auto_approve", "with workflow: every gate takes its first option").optional(),
  task: textField("task", { max: 100_000, description: "what to do; required unless a workflow with a goal is given" }).optional(),
  agent: textField("agent", { max: 64, pattern: AGENT_PATTERN, description: "the agent's name (fake, claude, codex, …)" }),
  model: textField("model", { max: 200 }).optional(),
  timeout: textField("timeout", {
    max: 32,
    pattern: /^[0-9a-z.]+$/,
    description: "the run's timeout, like 30m; without one the project's [limits] timeout or BATON_TIMEOUT must give one (a run started here is unattended)",
  }).optional(),
  require_output: choiceField("require_output", ["change", "none"], {
    max: 16,
    message: '"require_output" has an invalid value',
    description: "what the run must leave (default: the project's [run] require_output)",
  }).optional(),
});

const runAnswer = z.object({ run: runSummarySchema });
const refParams = z.object({ ref: refParam });

export const listRunsRoute = createRoute({
  method: "get",
  path: "/api/runs",
  operationId: "listRuns",
  summary: "List runs, newest first",
  request: { query: z.object({ status: statusQuery, limit: limitField(MAX_RUNS_LIMIT, DEFAULT_RUNS_LIMIT) }) },
  responses: {
    200: {
      description: "runs",
      content: json(runListAt(runSummarySchema)),
    },
    ...errorResponses([400]),
  },
});

export const startRunRoute = createRoute({
  method: "post",
  path: "/api/runs",
  operationId: "startRun",
  summary: "Start a run (the CLI, detached: the run outlives the request and the server)",
  description: "`task` is required unless a `workflow` is given (its goal may be the task); `auto_approve` needs a `workflow`.",
  middleware: [jsonBodyGate(), startRunRules],
  request: { body: { required: true, content: json(startRunBodySchema) } },
  responses: {
    201: {
      description: "started; Location names the run",
      content: json(z.object({ run: z.object({ id: z.string(), number: z.number().int().min(1) }) })),
    },
    ...errorResponses([...BODY_ERRORS, 422, 504], { 422: "the CLI refused the run (run_rejected, its one-line error)" }),
  },
});

export const getRunRoute = createRoute({
  method: "get",
  path: "/api/runs/{ref}",
  operationId: "getRun",
  summary: "One run",
  request: { params: refParams },
  responses: { 200: { description: "the run", content: json(runAnswer) }, ...errorResponses([400, 404]) },
});

export const listEventsRoute = createRoute({
  method: "get",
  path: "/api/runs/{ref}/events",
  operationId: "listEvents",
  summary: "A page of a run's durable events by seq",
  description: `With Accept: application/x-ndjson the events come one JSON envelope a line, unpaged unless limit is given (then any positive limit); as JSON, at most ${MAX_EVENTS_LIMIT} a page.`,
  request: {
    params: refParams,
    query: z.object({ after: cursorField("after", "only events with a greater seq").optional(), limit: limitField(MAX_EVENTS_LIMIT, DEFAULT_EVENTS_LIMIT, { pageMax: true }) }),
  },
  responses: {
    200: {
      description: "events with seq > after; next_after is the seq to pass next",
      content: {
        ...json(z.object({ events: z.array(eventEnvelopeSchema), next_after: z.number().int().min(0) })),
        "application/x-ndjson": { schema: { type: "string" as const, description: "one Event (JSON) a line" } },
      },
    },
    ...errorResponses([400, 404]),
  },
});

export const getOutputRoute = createRoute({
  method: "get",
  path: "/api/runs/{ref}/outputs/{call}",
  operationId: "getOutput",
  summary: "A tool call's complete output (the trace store, or its event when the preview holds it whole)",
  request: { params: z.object({ ref: refParam, call: callParam }) },
  responses: {
    200: { description: "the output", content: { "text/plain": { schema: z.string() } } },
    ...errorResponses([400, 404], { 404: "no such run, or the run has no output for the call (run_not_found, output_not_found)" }),
  },
});

export const cancelRunRoute = createRoute({
  method: "post",
  path: "/api/runs/{ref}/cancel",
  operationId: "cancelRun",
  summary: "Ask the run's process to cancel it",
  middleware: [jsonBodyGate({ optional: true })],
  request: { params: refParams, body: { required: false, content: json(z.object({ reason: textField("reason", { max: 1000 }).optional() })) } },
  responses: {
    200: { description: "the run had no live process: it is now failed (interrupted)", content: json(runAnswer) },
    202: { description: "asked; follow the stream for run.cancelled", content: json(runAnswer) },
    ...errorResponses([...BODY_ERRORS, 404, 409], { 409: "the run has already ended (run_ended)" }),
  },
});
