import { z } from "zod";
import { EVENT_TYPE_PATTERN, RUN_ID_PATTERN, TIMESTAMP_PATTERN, type Envelope as CoreEnvelope } from "./core/constants.ts";

export { PROTOCOL_VERSION, DEFAULT_EVENT_LIMIT_BYTES, type FeedEnvelope } from "./core/constants.ts";

/** `run_` followed by a ULID (Crockford base32, time-sortable). */
export const runIdSchema = z.string().regex(RUN_ID_PATTERN, "a run id is run_ followed by a 26-character ULID");

export const seqSchema = z.number().int().min(1);

/** RFC 3339 UTC with milliseconds, as produced by `Date.prototype.toISOString`. */
export const timestampSchema = z.string().regex(TIMESTAMP_PATTERN, "a UTC timestamp with milliseconds");

export const eventTypeSchema = z.string().regex(EVENT_TYPE_PATTERN, "a dot-named lower-case type");

/** The stage visit an event was emitted in (a workflow's stage; `branch` inside a fan-out's branch). */
export const stageScopeSchema = z.looseObject({
  id: z.string().min(1),
  visit: z.number().int().min(1),
  branch: z.string().min(1).optional(),
});

/**
 * The envelope every event travels in. It accepts fields it does not know (a later minor
 * version may add some), so that readers never fail on newer writers.
 */
export const envelopeSchema = z.looseObject({
  v: z.number().int().min(1),
  run: runIdSchema,
  seq: seqSchema.optional(),
  at: timestampSchema,
  type: eventTypeSchema,
  /** Set on every event emitted while a workflow stage runs, whatever its type. */
  stage: stageScopeSchema.optional(),
  data: z.record(z.string(), z.unknown()),
});

/** An envelope whose `type` and `data` are not checked against the catalog. */
export type Envelope = CoreEnvelope;

// The plain type in core and the schema describe the same shape: each is assignable to the other.
type Parsed = z.infer<typeof envelopeSchema>;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const envelopeTypesAgree: Same<Parsed, CoreEnvelope> = true;
void envelopeTypesAgree;
