// The request fields the API validates, as zod schemas: each is both the check a request
// passes and its description in the OpenAPI document. The messages are the API's own (a bad
// field is answered as before the document was generated from these schemas).

import { z } from "@hono/zod-openapi";
import { RUN_STATUSES, printable } from "../params.ts";

/** What a run reference in a path may look like: a run number, a run id, or an id prefix (never a path). */
const REF_PATTERN = /^(?:\d{1,15}|(?:run_)?[0-9A-Za-z]{1,26})$/;
/** A tool call id as a trace-store file name: letters, digits, `_`, `-`, `.` (not first, never `..`). */
const CALL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;
/** A question id, as Baton names them (`q_` and letters, digits, `_`, `-`). */
const QUESTION_PATTERN = /^q_[0-9A-Za-z_-]{1,60}$/;
const CURSOR_PATTERN = /^\d{1,15}$/;
const LIMIT_PATTERN = /^\d{1,9}$/;

const shown = (input: unknown) => printable(String(input));

export const refParam = z
  .string()
  .regex(REF_PATTERN, { error: (issue) => `"${shown(issue.input)}" is not a run number or id` })
  .openapi({ description: "a run number (12), a run id (run_…), or a unique id prefix", example: "12" });

export const callParam = z
  .string()
  .regex(CALL_PATTERN, { error: (issue) => `"${shown(issue.input)}" is not a tool call id` })
  .refine((call) => !call.includes(".."), { error: (issue) => `"${shown(issue.input)}" is not a tool call id` })
  .openapi({ description: "a tool call's id, as tool.completed or permission.requested names it" });

export const questionParam = z
  .string()
  .regex(QUESTION_PATTERN, { error: (issue) => `"${shown(issue.input)}" is not a question id` })
  .openapi({ description: "the question's id, as question.asked names it" });

/** A cursor (`seq` or `pos`): a non-negative integer, as text. */
export function cursorField(what: string, description: string) {
  const message = (issue: { input?: unknown }) => `${what} must be a non-negative integer, not "${shown(issue.input)}"`;
  return z.string({ error: message }).regex(CURSOR_PATTERN, { error: message }).transform(Number).openapi({ description });
}

/** `Last-Event-ID`: the cursor a reconnecting client received last; spaces around it and an empty header are ignored. */
export const lastEventIdHeader = z
  .string()
  .regex(/^\s*(?:\d{1,15})?\s*$/, { error: (issue) => `Last-Event-ID must be a non-negative integer, not "${shown(String(issue.input).trim())}"` })
  .transform((text) => (text.trim() === "" ? undefined : Number(text.trim())))
  .optional()
  .openapi({ description: "resume after this id (wins over ?after): what an EventSource sends when it reconnects" });

/**
 * `limit`: an integer from 1 to `max`, as text. `pageMax`: the most a page (the JSON answer)
 * takes when the route's other form (NDJSON) takes any count: checked by the route.
 */
export function limitField(max: number, fallback: number, options: { pageMax?: boolean } = {}) {
  const message = (issue: { input?: unknown }) => `limit must be an integer from 1 to ${max}, not "${shown(issue.input)}"`;
  const upTo = options.pageMax === true ? Number.MAX_SAFE_INTEGER : max;
  return z
    .string({ error: message })
    .regex(LIMIT_PATTERN, { error: message })
    .transform(Number)
    .refine((value) => value >= 1 && value <= upTo, { error: message })
    .optional()
    .openapi({ description: `an integer from 1 to ${max} (default ${fallback})${options.pageMax === true ? " for a page; any positive count for NDJSON" : ""}`, example: String(Math.min(fallback, max)) });
}

export const statusQuery = z
  .enum(RUN_STATUSES, { error: (issue) => `status must be one of ${RUN_STATUSES.join(", ")}, not "${shown(issue.input)}"` })
  .optional()
  .openapi({ description: "only runs of this status" });

/**
 * A body's text field: non-empty (not only spaces), at most `max` characters, no NUL; a
 * `pattern` it must match besides. Required unless `.optional()`.
 */
export function textField(name: string, options: { max: number; pattern?: RegExp; description?: string }) {
  const shape = `"${name}" must be a non-empty string of at most ${options.max} characters`;
  let schema = z
    .string({ error: (issue) => (issue.input === undefined ? `"${name}" is required` : shape) })
    .min(1, { error: shape })
    .max(options.max, { error: shape })
    .refine((text) => text.trim().length > 0 && !text.includes("\0"), { error: shape });
  if (options.pattern !== undefined) {
    schema = schema.regex(options.pattern, { error: `"${name}" has an invalid value` });
  }
  return options.description === undefined ? schema : schema.openapi({ description: options.description });
}

/** A body's field that takes one of `values` (a text field first: its message for anything not a short string). */
export function choiceField<const T extends readonly [string, ...string[]]>(name: string, values: T, options: { max: number; message: string; description?: string }) {
  const shape = `"${name}" must be a non-empty string of at most ${options.max} characters`;
  const schema = z.enum(values, {
    error: (issue) => {
      const input = issue.input;
      if (typeof input !== "string" || input.trim().length === 0 || input.length > options.max || input.includes("\0")) return shape;
      return options.message;
    },
  });
  return options.description === undefined ? schema : schema.openapi({ description: options.description });
}

export function booleanField(name: string, description: string) {
  return z.boolean({ error: `"${name}" must be true or false` }).openapi({ description });
}

/** `by`: who, as recorded. */
export const byField = (description: string) => textField("by", { max: 200, description });

/** `via`: the surface a person used, as recorded. */
export const viaField = choiceField("via", ["api", "web"], { max: 8, message: '"via" must be one of api, web', description: "where it was done, as recorded (default: api)" });

/**
 * The code and hint of a bad field, by its name: a path's run reference and call id and a
 * stream's cursor have codes of their own; any other field is a `bad_request`.
 */
export const FIELD_ERRORS: Readonly<Record<string, { code: "invalid_ref" | "invalid_call" | "invalid_question" | "invalid_cursor" | "bad_request"; hint?: string }>> = {
  ref: { code: "invalid_ref", hint: "use a run number (12) or id (run_…)" },
  call: { code: "invalid_call", hint: "use the call id of a tool.completed event" },
  question: { code: "invalid_question", hint: "use the id of a question.asked event (q_…)" },
  after: { code: "invalid_cursor", hint: "pass the last id you received, or 0" },
  "last-event-id": { code: "invalid_cursor", hint: "pass the last id you received, or 0" },
  digest: { code: "bad_request", hint: "use the sha256 of an artifact.captured event" },
  workflow: { code: "bad_request", hint: "name a workflow of .baton/workflows/ without its extension (or single); paths are not taken" },
};
