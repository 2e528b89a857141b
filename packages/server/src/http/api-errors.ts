import { inspect } from "node:util";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BatonError, isBatonError } from "@baton/engine/errors";
import { visibleText, definedFields } from "@baton/protocol/core";

/** The one shape of every error the API returns. */
export type ErrorBody = { error: { code: string; message: string; hint?: string } };

/**
 * HTTP status of each error code the API (or the store below it) raises. A BatonError is an
 * expected failure: a code missing here is a client error (400), never a 500.
 */
const STATUS_OF_CODE: Record<string, ContentfulStatusCode> = {
  bad_request: 400,
  invalid_cursor: 400,
  invalid_ref: 400,
  invalid_call: 400,
  invalid_question: 400,
  ambiguous_run: 400,
  usage: 400,
  unauthorized: 401,
  forbidden_host: 403,
  not_found: 404,
  run_not_found: 404,
  output_not_found: 404,
  artifact_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  run_ended: 409,
  not_paused: 409,
  not_running: 409,
  no_workspace: 409,
  answer_conflict: 409,
  unknown_call: 404,
  unknown_question: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  run_rejected: 422,
  invalid_answer: 422,
  resume_rejected: 422,
  start_timeout: 504,
};

/** An API error: a BatonError whose code has an HTTP status. */
export function apiError(code: keyof typeof STATUS_OF_CODE & string, message: string, hint?: string): BatonError {
  return new BatonError(code, message, definedFields({ hint }));
}

export function statusOf(error: BatonError): ContentfulStatusCode {
  return STATUS_OF_CODE[error.code] ?? 400;
}

export function errorBody(code: string, message: string, hint?: string): ErrorBody {
  return { error: hint === undefined ? { code, message } : { code, message, hint } };
}

/**
 * The app's one error translation (hono's `onError`): BatonError → its status, hono's own
 * HTTPException (a malformed body…) → its status, anything else → 500 without internals.
 * The 500's log line is for the terminal running the server: the path is the client's (hono
 * has decoded its `%1b`s) and the error may quote it, so both are shown, not acted on.
 */
export function errorResponse(error: Error, c: Context): Response {
  if (isBatonError(error)) return c.json(errorBody(error.code, error.message, error.hint), statusOf(error));
  if (error instanceof HTTPException) return c.json(errorBody(error.status === 401 ? "unauthorized" : "bad_request", error.message || "bad request"), error.status);
  console.error(`baton serve: ${visibleText(c.req.method)} ${visibleText(c.req.path)} failed: ${visibleText(inspect(error), { keepNewlines: true })}`);
  return c.json(errorBody("internal", "the server failed to handle this request; see its log"), 500);
}
