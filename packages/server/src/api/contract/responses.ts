// The answers an operation documents: its own, and the errors of the statuses it can answer.

import { z } from "@hono/zod-openapi";
import { errorSchema } from "./components.ts";

const ERROR_DESCRIPTIONS = {
  400: "a parameter or the body is not valid (bad_request, invalid_ref, invalid_cursor, invalid_call, …)",
  401: "the token is missing or not this server's (unauthorized)",
  403: "the Host header names a host the server does not answer to (forbidden_host)",
  404: "no such run, or no such thing of the run (run_not_found, output_not_found, …)",
  405: "the path takes other methods (method_not_allowed); the Allow header lists them",
  409: "the run is not in a state that takes this (run_ended, not_paused, not_running, no_workspace, answer_conflict)",
  413: "the body is larger than 256 KiB (payload_too_large)",
  415: "the body is not application/json (unsupported_media_type)",
  422: "the request is well formed but refused (run_rejected, resume_rejected, invalid_answer)",
  500: "the server failed to handle the request (internal); its log says why",
  504: "the run did not start in time (start_timeout)",
} as const;

export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** Statuses every /api route can answer: the Host check, the token, the method, a failure of the server. */
const EVERY_ROUTE = [401, 403, 405, 500] as const;
/** Statuses every route that takes a body answers besides. */
export const BODY_ERRORS = [400, 413, 415] as const;

export const json = <S>(schema: S) => ({ "application/json": { schema } });

/**
 * A list of runs read at one feed position: `runs` with the position they were read at, so a
 * client follows `/api/stream?after=feed_pos` to keep the list current without replaying the feed.
 */
export function runListAt<T extends z.ZodType>(run: T) {
  return z.object({
    runs: z.array(run),
    feed_pos: z.number().int().min(0).openapi({
      description: "The highest feed position committed before the list was read: follow /api/stream?after=feed_pos to keep the list current without replaying the feed",
    }),
  });
}

/** The error responses of `statuses` (and those every route answers), each with the error schema. */
export function errorResponses(statuses: readonly ErrorStatus[], descriptions: Partial<Record<ErrorStatus, string>> = {}) {
  const all = [...new Set<ErrorStatus>([...statuses, ...EVERY_ROUTE])].sort((a, b) => a - b);
  return Object.fromEntries(all.map((status) => [status, { description: descriptions[status] ?? ERROR_DESCRIPTIONS[status], content: json(errorSchema) }])) as Record<
    ErrorStatus,
    { description: string; content: { "application/json": { schema: typeof errorSchema } } }
  >;
}

/**
 * A response whose body the typed answers cannot express (a stream of NDJSON lines, a file's
 * bytes): the route's document still describes it, by media type.
 */
export function rawResponse(response: Response): never {
  return response as never;
}
