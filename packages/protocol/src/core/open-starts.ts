// Which starts of a log still wait for their end (docs/protocol.md, "every start has an end").
// Zod-free like the run-state fold: the store folds a dead writer's log with it to close what
// the writer left open, and the suite's log check uses it to find starts a run never ended.
import type { Envelope, StageScope } from "./constants.ts";

/**
 * Each start type, the ends that close it, and the data fields that pair them
 * (docs/protocol.md). `branch`: the envelope's fan-out branch pairs them too (the same stage
 * visit runs in every branch of a `foreach`).
 */
export const START_END_PAIRS = {
  "agent.started": { ends: ["agent.finished"], by: ["session"], branch: false },
  "turn.started": { ends: ["turn.completed"], by: ["session", "turn"], branch: false },
  "tool.started": { ends: ["tool.completed"], by: ["call"], branch: false },
  "permission.requested": { ends: ["permission.resolved"], by: ["call"], branch: false },
  "stage.started": { ends: ["stage.completed", "stage.failed"], by: ["stage", "visit"], branch: true },
  "parallel.started": { ends: ["parallel.completed"], by: ["stage"], branch: true },
  "branch.started": { ends: ["branch.completed"], by: ["stage", "branch"], branch: false },
  // A person's input the run took: delivered to the agent, or rejected (`not_running` when the run ends first).
  "input.queued": { ends: ["input.delivered", "input.rejected"], by: ["id"], branch: false },
  // A question the agent asked through ACP elicitation: answered by a person or by Baton (declined, cancelled).
  "question.asked": { ends: ["question.answered"], by: ["id"], branch: false },
  "setup.started": { ends: ["setup.completed", "setup.failed"], by: ["branch"], branch: false },
} as const;

export type StartType = keyof typeof START_END_PAIRS;

/** A start whose end has not been seen (yet): what is needed to write that end. */
export type OpenStart = {
  type: StartType;
  seq: number | undefined;
  at: string;
  /** The envelope's stage scope of the start: its end is written in the same scope. */
  stage?: StageScope;
  /** The start's pairing fields and names, as they were in its data (strings and numbers only). */
  data: { session?: string; turn?: number; call?: string; tool?: string; stage?: string; visit?: number; branch?: string; id?: string };
  /** agent.started only: the turns started in its session so far (its `agent.finished.turns`). */
  turns?: number;
  /** parallel.started only: the outcome of each of its branches that has ended, in order of their ends. */
  results?: Array<{ branch: string; outcome: string }>;
};

/** The open starts of a log being folded, keyed by type and pairing fields, in start order. */
export type OpenStarts = Map<string, OpenStart>;

const END_TO_START = new Map<string, StartType>(
  Object.entries(START_END_PAIRS).flatMap(([start, pair]) => pair.ends.map((end) => [end, start as StartType] as const)),
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
  if (Object.hasOwn(START_END_PAIRS, event.type)) {
    const type = event.type as StartType;
    const key = pairKey(type, event, data);
    if (!open.has(key)) open.set(key, startOf(type, event, data));
    if (type === "turn.started") {
      const agent = open.get(pairKey("agent.started", event, data));
      if (agent !== undefined) agent.turns = (agent.turns ?? 0) + 1;
    }
    return;
  }
  const start = END_TO_START.get(event.type);
  if (start === undefined) return;
  open.delete(pairKey(start, event, data));
  if (event.type === "branch.completed" && typeof data["branch"] === "string") {
    const parallel = [...open.values()].findLast((candidate) => candidate.type === "parallel.started" && candidate.data.stage === data["stage"]);
    parallel?.results?.push({ branch: data["branch"], outcome: typeof data["outcome"] === "string" ? data["outcome"] : "unknown" });
  }
}

/** The starts of `events` that have no end, in start order. */
export function openStartsOf(events: Iterable<Envelope>): OpenStart[] {
  const open: OpenStarts = new Map();
  for (const event of events) applyToOpenStarts(open, event);
  return [...open.values()];
}

/** How a start is named in a report: its type and pairing fields (`tool.started (call "c_1")`). */
export function describeStart(start: OpenStart): string {
  const pair = START_END_PAIRS[start.type];
  const fields = pair.by.map((field) => `${field} ${JSON.stringify(start.data[field])}`);
  if (pair.branch && start.stage?.branch !== undefined) fields.push(`branch ${JSON.stringify(start.stage.branch)}`);
  return `${start.type} (${fields.join(", ")})`;
}

function pairKey(type: StartType, event: Envelope, data: Record<string, unknown>): string {
  const pair = START_END_PAIRS[type];
  const fields: unknown[] = pair.by.map((field) => data[field] ?? null);
  if (pair.branch) fields.push(event.stage?.branch ?? null);
  return JSON.stringify([type, ...fields]);
}

function startOf(type: StartType, event: Envelope, data: Record<string, unknown>): OpenStart {
  const start: OpenStart = { type, seq: event.seq, at: event.at, data: {} };
  if (event.stage !== undefined) start.stage = event.stage;
  for (const field of ["session", "call", "tool", "stage", "branch", "id"] as const) {
    const value = data[field];
    if (typeof value === "string") start.data[field] = value;
  }
  for (const field of ["turn", "visit"] as const) {
    const value = data[field];
    if (typeof value === "number") start.data[field] = value;
  }
  if (type === "agent.started") start.turns = 0;
  if (type === "parallel.started") start.results = [];
  return start;
}
