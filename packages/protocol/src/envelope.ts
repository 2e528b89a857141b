import { z } from "zod";

/** The protocol version written in every envelope's `v`. Bumped only by a breaking change. */
export const PROTOCOL_VERSION = 1;

/** Events larger than this, serialized, keep their envelope and seq but lose their `data`. */
export const DEFAULT_EVENT_LIMIT_BYTES = 1_048_576;

/** `run_` followed by a ULID (Crockford base32, time-sortable). */
export const runIdSchema = z
  .string()
  .regex(/^run_[0-9A-HJKMNP-TV-Z]{26}$/, "a run id is run_ followed by a 26-character ULID");

export const seqSchema = z.number().int().min(1);

/** RFC 3339 UTC with milliseconds, as produced by `Date.prototype.toISOString`. */
export const timestampSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, "a UTC timestamp with milliseconds");

export const eventTypeSchema = z.string().regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/, "a dot-named lower-case type");

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
  data: z.record(z.string(), z.unknown()),
});

/** An envelope whose `type` and `data` are not checked against the catalog. */
export type Envelope = z.infer<typeof envelopeSchema>;

/** An envelope as it appears on the cross-run feed: tagged with the store's `pos` and the run's `number`. */
export type FeedEnvelope = Envelope & { pos: number; number: number };
