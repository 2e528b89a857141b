import type { Context } from "hono";
import { apiError } from "../http/api-errors.ts";

/** Largest request body the API reads (a task text and a few fields). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * A request's JSON object body: 415 unless it is declared `application/json`, 400 unless it
 * parses to an object. `optional`: an empty body (no Content-Type, no bytes) is `{}`.
 */
export async function jsonBody(c: Context, options: { optional?: boolean } = {}): Promise<Record<string, unknown>> {
  const type = c.req.header("content-type");
  const text = await c.req.text();
  if (options.optional === true && type === undefined && text.length === 0) return {};
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
    throw apiError("unsupported_media_type", `the body must be application/json, not ${type ?? "absent"}`, "send Content-Type: application/json");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw apiError("bad_request", "the body is not valid JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw apiError("bad_request", "the body must be a JSON object");
  return value as Record<string, unknown>;
}

/** A string field: required or optional, non-empty, at most `max` characters, no NUL. */
export function stringField(body: Record<string, unknown>, name: string, options: { required: boolean; max: number; pattern?: RegExp }): string | undefined {
  const value = body[name];
  if (value === undefined) {
    if (options.required) throw apiError("bad_request", `"${name}" is required`);
    return undefined;
  }
  if (typeof value !== "string" || value.trim().length === 0 || value.length > options.max || value.includes("\0")) {
    throw apiError("bad_request", `"${name}" must be a non-empty string of at most ${options.max} characters`);
  }
  if (options.pattern !== undefined && !options.pattern.test(value)) throw apiError("bad_request", `"${name}" has an invalid value`);
  return value;
}

/** A boolean field: absent is undefined, anything but true or false is refused. */
export function booleanField(body: Record<string, unknown>, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined || typeof value === "boolean") return value;
  throw apiError("bad_request", `"${name}" must be true or false`);
}
