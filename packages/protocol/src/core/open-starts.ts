// Which starts of a log still wait for their end (docs/protocol.md, "every start has an end").
// Zod-free like the run-state fold: the store folds a dead writer's log with it to close what
// the writer left open, and the suite's log check uses it to find starts a run never ended.
import type { Envelope } from "./constants.ts";

/** Each start type, the end that closes it, and the fields that pair them (docs/protocol.md). */
export const START_END_PAIRS = {
  "agent.started": { end: "agent.finished", by: ["session"] },
  "turn.started": { end: "turn.completed", by: ["session", "turn"] },
  "tool.started": { end: "tool.completed", by: ["call"] },
  "permission.requested": { end: "permission.resolved", by: ["call"] },
} as const;

export type StartType = keyof typeof START_END_PAIRS;

/** A start whose end has not been seen (yet): what is needed to write that end. */
export type OpenStart = {
  type: StartType;
  seq: number | undefined;
  at: string;
  /** The start's pairing fields and names, as they were in its data (strings and numbers only). */
  session?: string;
  turn?: number;
  call?: string;
  tool?: string;
  /** agent.started only: the turns started in its session so far (its `agent.finished.turns`). */
  turns?: number;
};

/** The open starts of a log being folded, keyed by type and pairing fields, in start order. */
export type OpenStarts = Map<string, OpenStart>;

const END_TO_START = new Map<string, StartType>(
  Object.entries(START_END_PAIRS).map(([start, pair]) => [pair.end, start as StartType]),
);

/**
 * Applies one event to the open starts: a start opens an entry, its end closes it. Total like
 * the run-state fold: an end without a start, or a start seen twice, changes nothing and never
 * throws (the run-state fold is where such a log gets its warnings).
 *
 * @example
 * const open: OpenStarts = new Map();
 * for (const event of events) applyToOpenStarts(open, event);
 * for (const start of open.values()) console.log(`${start.type} at seq ${start.seq} never ended`);
 */
export function applyToOpenStarts(open: OpenStarts, event: Envelope): void {
  const data: Record<string, unknown> = typeof event.data === "object" && event.data !== null ? event.data : {};
  if (event.type in START_END_PAIRS) {
    const type = event.type as StartType;
    const key = pairKey(type, data);
    if (!open.has(key)) open.set(key, startOf(type, event, data));
    if (type === "turn.started") {
      const agent = open.get(pairKey("agent.started", data));
      if (agent !== undefined) agent.turns = (agent.turns ?? 0) + 1;
    }
    return;
  }
  const start = END_TO_START.get(event.type);
  if (start !== undefined) open.delete(pairKey(start, data));
}

/** The starts of `events` that have no end, in start order. */
export function openStartsOf(events: Iterable<Envelope>): OpenStart[] {
  const open: OpenStarts = new Map();
  for (const event of events) applyToOpenStarts(open, event);
  return [...open.values()];
}

function pairKey(type: StartType, data: Record<string, unknown>): string {
  return JSON.stringify([type, ...START_END_PAIRS[type].by.map((field) => data[field] ?? null)]);
}

function startOf(type: StartType, event: Envelope, data: Record<string, unknown>): OpenStart {
  const start: OpenStart = { type, seq: event.seq, at: event.at };
  if (typeof data["session"] === "string") start.session = data["session"];
  if (typeof data["turn"] === "number") start.turn = data["turn"];
  if (typeof data["call"] === "string") start.call = data["call"];
  if (typeof data["tool"] === "string") start.tool = data["tool"];
  if (type === "agent.started") start.turns = 0;
  return start;
}
