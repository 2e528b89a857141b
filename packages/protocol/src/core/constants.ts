// The protocol's fixed facts, free of zod: what a writer or a reader of logs needs without
// loading the schemas (the store's follow path stays small). The zod schemas build on these.

/** The protocol version written in every envelope's `v`. Bumped only by a breaking change. */
export const PROTOCOL_VERSION = 1;

/** Events larger than this, serialized, keep their envelope and seq but lose their `data`. */
export const DEFAULT_EVENT_LIMIT_BYTES = 1_048_576;

/** `run_` followed by a ULID (Crockford base32, time-sortable). */
export const RUN_ID_PATTERN = /^run_[0-9A-HJKMNP-TV-Z]{26}$/;

/** RFC 3339 UTC with milliseconds, as produced by `Date.prototype.toISOString`. */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Dot-separated lower-case words. */
export const EVENT_TYPE_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;

/** The stage visit an event was emitted in: a workflow's stage, and the fan-out branch it ran in. */
export type StageScope = { id: string; visit: number; branch?: string | undefined; [field: string]: unknown };

/** An event envelope. The zod schema in `envelope.ts` checks values of this shape. */
export type Envelope = {
  v: number;
  run: string;
  seq?: number | undefined;
  at: string;
  type: string;
  stage?: StageScope | undefined;
  data: Record<string, unknown>;
  [field: string]: unknown;
};

/** An envelope as it appears on the cross-run feed: tagged with the store's `pos` and the run's `number`. */
export type FeedEnvelope = Envelope & { pos: number; number: number };
