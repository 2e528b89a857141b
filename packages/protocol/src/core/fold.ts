// The run-state fold is zod-free (types aside), so that small readers (the store's followers, the
// web UI's bundle) can fold events without loading the catalog's schemas.
import type { ErrorInfo, Usage } from "../catalog/shared.ts";
import type { Envelope } from "./constants.ts";
import { isFinalStatus, isKnownType, type RunStatus } from "./event-types.ts";
import { applyWorkflowEvent, initialWorkflowState, type WorkflowState } from "./stage-fold.ts";

/** What a run's events say about it. Built only from events: any view can rebuild it. */
export type RunState = {
  run?: string;
  number?: number;
  task?: string;
  agent?: string;
  model?: string;
  status: RunStatus;
  created_at?: string;
  started_at?: string;
  ended_at?: string;
  duration_ms?: number;
  usage: Required<Usage>;
  cost_usd?: number;
  error?: ErrorInfo;
  stopped_by?: string;
  /** The class of the provider failure that stopped or failed the run. */
  provider_error?: string;
  cancelled_by?: string;
  /** Where the run worked, from `workspace.ready`. */
  workspace?: { kind: string; path: string; branch?: string; base?: string; base_branch?: string; base_sha?: string };
  /** The run's commit, from `git.committed`. */
  commit?: { sha: string; branch: string; message: string; files: number };
  last_seq: number;
  counts: {
    events: number;
    turns: number;
    messages: number;
    tool_calls: number;
    tool_failures: number;
    permissions: number;
    unknown: number;
  };
  open_tool_calls: string[];
  /** Per-session usage, so that `basis: "total"` reports replace rather than add. */
  sessions: Record<string, { usage: Required<Usage>; cost_usd?: number }>;
  /** For a workflow run: its graph, stage visits, pending gate, checkpoints and context. */
  workflow: WorkflowState;
  /** Things the fold noticed that should not happen (a gap in seq, an event after the end). */
  warnings: string[];
};

export function initialRunState(): RunState {
  return {
    status: "created",
    usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 },
    last_seq: 0,
    counts: { events: 0, turns: 0, messages: 0, tool_calls: 0, tool_failures: 0, permissions: 0, unknown: 0 },
    open_tool_calls: [],
    sessions: {},
    workflow: initialWorkflowState(),
    warnings: [],
  };
}

const USAGE_KEYS = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"] as const;

/** Warnings kept at most: a broken log must not make the state grow without bound. */
const MAX_WARNINGS = 100;

/**
 * Applies one event to a run state and returns the new state. Total: an event in an
 * unexpected place adds a warning and never throws. The input state is not modified.
 */
export function foldEvent(previous: RunState, event: Envelope): RunState {
  const state = structuredClone(previous);
  applyEvent(state, event);
  return state;
}

/** Folds a whole sequence of events. */
export function foldRun(events: Iterable<Envelope>): RunState {
  const state = initialRunState();
  for (const event of events) applyEvent(state, event);
  return state;
}

/** Like {@link foldEvent}, but updates `state` in place: for folding long logs without copies. */
export function applyEvent(state: RunState, event: Envelope): void {
  const warn = (text: string) => {
    if (state.warnings.length < MAX_WARNINGS) state.warnings.push(text);
  };
  // The fold is total: a log written by a buggy or newer writer still folds, with a warning.
  const data: Record<string, unknown> = isRecord(event.data) ? event.data : {};
  if (data !== event.data) warn(`${event.type} with data that is not an object`);
  state.run ??= event.run;
  if (event.run !== state.run) {
    warn(`event from another run ${event.run} ignored`);
    return;
  }
  if (event.seq !== undefined) {
    if (event.seq <= state.last_seq) warn(`seq ${event.seq} repeated or out of order`);
    else if (event.seq !== state.last_seq + 1) warn(`gap: seq ${state.last_seq + 1} to ${event.seq - 1} missing`);
    state.last_seq = Math.max(state.last_seq, event.seq);
    state.counts.events += 1;
  }
  // A failed workflow run can be resumed (`baton resume`): its new `run.started` reopens it.
  const reopens = event.type === "run.started" && data["resumed"] === true && state.status === "failed";
  const ended = isFinalStatus(state.status) && !reopens;
  if (ended && event.seq !== undefined) warn(`${event.type} after the run ended`);

  switch (event.type) {
    case "run.created":
      state.number = num(data["number"]) ?? state.number;
      state.task = str(data["task"]) ?? state.task;
      state.agent = str(data["agent"]) ?? state.agent;
      state.model = str(data["model"]) ?? state.model;
      state.created_at = event.at;
      break;
    case "run.started":
      state.started_at ??= event.at;
      if (ended) break;
      // A resume after a pause or a failure: the run is active again, so that end no longer holds.
      state.status = "running";
      delete state.ended_at;
      delete state.duration_ms;
      delete state.error;
      delete state.provider_error;
      break;
    // A final event is the run's outcome: a second one (a broken log) is warned about above
    // and does not overwrite the first.
    case "run.paused":
      if (ended) break;
      state.status = "paused";
      state.ended_at = event.at;
      break;
    case "run.completed":
      if (ended) break;
      state.status = data["status"] === "stopped" ? "stopped" : "succeeded";
      state.stopped_by = str(data["stopped_by"]);
      state.provider_error = str(data["provider_error"]);
      state.ended_at = event.at;
      state.duration_ms = num(data["duration_ms"]);
      break;
    case "run.failed":
      if (ended) break;
      state.status = "failed";
      state.ended_at = event.at;
      state.error = errorOf(data["error"]);
      state.provider_error = str(data["provider_error"]);
      break;
    case "run.cancelled":
      if (ended) break;
      state.status = "cancelled";
      state.ended_at = event.at;
      state.cancelled_by = str(data["by"]);
      break;
    case "turn.started":
      state.counts.turns += 1;
      break;
    case "agent.message":
      state.counts.messages += 1;
      break;
    case "tool.started": {
      const call = callOf(data, event.type, warn);
      if (state.open_tool_calls.includes(call)) warn(`tool call ${call} started twice`);
      else state.open_tool_calls.push(call);
      state.counts.tool_calls += 1;
      break;
    }
    case "tool.completed": {
      const call = callOf(data, event.type, warn);
      const index = state.open_tool_calls.indexOf(call);
      if (index === -1) warn(`tool call ${call} completed without a start`);
      else state.open_tool_calls.splice(index, 1);
      if (data["is_error"] === true || data["status"] === "failed") state.counts.tool_failures += 1;
      break;
    }
    case "permission.requested":
      state.counts.permissions += 1;
      break;
    case "workspace.ready": {
      const workspace: NonNullable<RunState["workspace"]> = { kind: str(data["kind"]) ?? "unknown", path: str(data["path"]) ?? "" };
      for (const key of ["branch", "base", "base_branch", "base_sha"] as const) {
        const value = str(data[key]);
        if (value !== undefined) workspace[key] = value;
      }
      state.workspace = workspace;
      break;
    }
    case "git.committed":
      // A fan-out branch commits on a git branch of its own; the run's commit is on the run's.
      if (event.stage?.branch !== undefined) break;
      state.commit = {
        sha: str(data["sha"]) ?? "",
        branch: str(data["branch"]) ?? "",
        message: str(data["message"]) ?? "",
        files: Array.isArray(data["files"]) ? data["files"].length : 0,
      };
      break;
    case "usage.updated":
      applyUsage(state, data, warn);
      break;
    default:
      if (!isKnownType(event.type)) state.counts.unknown += 1;
      break;
  }
  applyWorkflowEvent(state.workflow, event, data, warn);
  if (state.created_at && state.ended_at && state.duration_ms === undefined) {
    const elapsed = Date.parse(state.ended_at) - Date.parse(state.started_at ?? state.created_at);
    if (Number.isFinite(elapsed)) state.duration_ms = Math.max(0, elapsed);
  }
}

function callOf(data: Record<string, unknown>, type: string, warn: (text: string) => void): string {
  const call = str(data["call"]);
  if (call === undefined || call === "") warn(`${type} without a call id`);
  return call ?? "";
}

function applyUsage(state: RunState, data: Record<string, unknown>, warn: (text: string) => void): void {
  const key = str(data["session"]) ?? "";
  const basis = data["basis"] === "total" ? "total" : "delta";
  // Session ids come from the log: `Object.hasOwn` and `defineProperty` keep a session named
  // `__proto__` or `constructor` an ordinary entry instead of reaching Object.prototype.
  if (!Object.hasOwn(state.sessions, key)) {
    const fresh = { usage: { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 } };
    Object.defineProperty(state.sessions, key, { value: fresh, enumerable: true, writable: true, configurable: true });
  }
  const session = state.sessions[key]!;
  for (const field of USAGE_KEYS) {
    const value = count(data[field]);
    if (value === undefined && data[field] !== undefined) warn(`usage.updated ${field} is not a count`);
    if (value !== undefined) session.usage[field] = basis === "total" ? value : session.usage[field] + value;
  }
  const cost = count(data["cost_usd"]);
  if (cost !== undefined) session.cost_usd = basis === "total" ? cost : (session.cost_usd ?? 0) + cost;
  const sessions = Object.values(state.sessions);
  for (const field of USAGE_KEYS) state.usage[field] = sessions.reduce((sum, s) => sum + s.usage[field], 0);
  const costs = sessions.flatMap((s) => (s.cost_usd === undefined ? [] : [s.cost_usd]));
  if (costs.length > 0) state.cost_usd = costs.reduce((sum, c) => sum + c, 0);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A non-negative finite number: usage and cost never go down by a negative report. */
function count(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n >= 0 ? n : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function errorOf(value: unknown): ErrorInfo {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  return { code: str(record["code"]) ?? "unknown", message: str(record["message"]) ?? "" };
}
