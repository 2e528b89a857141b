import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { BatonError, isBatonError } from "@baton/engine/errors";

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
  ambiguous_run: 400,
  usage: 400,
  unauthorized: 401,
  forbidden_host: 403,
  not_found: 404,
  run_not_found: 404,
  output_not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  run_ended: 409,
  not_paused: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  run_rejected: 422,
  invalid_answer: 422,
  resume_rejected: 422,
  start_timeout: 504,
};

/** An API error: a BatonError whose code has an HTTP status. */
export function apiError(code: keyof typeof STATUS_OF_CODE & string, message: string, hint?: string): BatonError {
  return new BatonError(code, message, hint === undefined ? {} : { hint });
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
 */
export function errorResponse(error: Error, c: Context): Response {
  if (isBatonError(error)) return c.json(errorBody(error.code, error.message, error.hint), statusOf(error));
  if (error instanceof HTTPException) return c.json(errorBody(error.status === 401 ? "unauthorized" : "bad_request", error.message || "bad request"), error.status);
  console.error(`baton serve: ${c.req.method} ${c.req.path} failed:`, error);
  return c.json(errorBody("internal", "the server failed to handle this request; see its log"), 500);
}
