export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

/** One finished span, as Baton builds it from a run's events (times from their `at`). */
export type SpanRecord = {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: "internal" | "client";
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: { name: string; timeMs: number; attributes: Attributes }[];
  status: { code: "unset" | "ok" | "error"; message?: string };
  /** The seq of the event that started it (its id is made from it). */
  startSeq: number;
};
