import type { Context, MiddlewareHandler } from "hono";
import { apiError } from "../http/api-errors.ts";

/** Largest request body the API reads (a task text and a few fields). */
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * A route's JSON body gate, before its schema: 415 unless the body is declared
 * `application/json`, 400 unless it parses to an object. `optional`: an empty body (no
 * Content-Type, no bytes) is `{}`. The body read here is the one the route's schema validates.
 */
export function jsonBodyGate(options: { optional?: boolean } = {}): MiddlewareHandler {
  return async (c, next) => {
    const empty = (await jsonBody(c, options)) === undefined;
    // Checked here, by this gate's rules: the schema's own media-type check sees plain JSON.
    if (!empty) c.req.raw.headers.set("content-type", "application/json");
    await next();
  };
}

/** The body's object, or undefined for an optional body left empty. */
async function jsonBody(c: Context, options: { optional?: boolean }): Promise<Record<string, unknown> | undefined> {
  const type = c.req.header("content-type");
  const text = await c.req.text();
  if (options.optional === true && type === undefined && text.length === 0) return undefined;
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
