import type { Envelope } from "@baton/protocol/core";
import { stoppedByWords } from "../format/limits.ts";
import { type Data, list, num, record, str } from "./data.ts";
import type { EndItem, NoteItem, PermissionItem, PlanEntry, StageRef, StreamingText, TimelineItem, ToolItem } from "./items.ts";
import { noteFor } from "./notes.ts";
import { budgetTenth } from "./reliability-notes.ts";
import { applyToSummary, initialSummary, isEnded, type RunSummary } from "./summary.ts";

/**
 * A run's timeline: a pure function of the events applied to it, in order. Durable events at
 * or below `lastSeq` are ignored, so a replay after a reconnect adds nothing twice.
 */
export type TimelineState = {
  lastSeq: number;
  items: readonly TimelineItem[];
  streaming: readonly StreamingText[];
  summary: RunSummary;
  /** Index in `items` of each tool call's and permission's item, by call id. */
  toolAt: ReadonlyMap<string, number>;
  permissionAt: ReadonlyMap<string, number>;
  /** The latest budget row: its index in `items`, the tenth of the most used limit it is at, its stage. */
  budget: { readonly at: number; readonly tenth: number; readonly stage: string } | undefined;
};

export function initialTimeline(): TimelineState {
  return { lastSeq: 0, items: [], streaming: [], summary: initialSummary(), toolAt: new Map(), permissionAt: new Map(), budget: undefined };
}

type Draft = { -readonly [K in keyof TimelineState]: TimelineState[K] } & {
  items: TimelineItem[];
  streaming: StreamingText[];
  toolAt: Map<string, number>;
  permissionAt: Map<string, number>;
};

/** Applies a batch of events and returns the new state; `state` is not modified. */
export function applyEvents(state: TimelineState, events: readonly Envelope[]): TimelineState {
  const draft: Draft = {
    lastSeq: state.lastSeq,
    items: [...state.items],
    streaming: [...state.streaming],
    summary: structuredClone(state.summary),
    toolAt: new Map(state.toolAt),
    permissionAt: new Map(state.permissionAt),
    budget: state.budget,
  };
  for (const event of events) applyOne(draft, event);
  return draft;
}

/** Drops text still streaming: after a reconnect the deltas in between are lost for good. */
export function clearStreaming(state: TimelineState): TimelineState {
  return state.streaming.length === 0 ? state : { ...state, streaming: [] };
}

function applyOne(draft: Draft, event: Envelope): void {
  const data = record(event.data);
  if (event.seq === undefined) {
    if (event.type === "agent.delta" && !isEnded(draft.summary.status)) applyDelta(draft, data);
    return;
  }
  if (event.seq <= draft.lastSeq) return;
  draft.lastSeq = event.seq;
  applyToSummary(draft.summary, event);
  const added = draft.items.length;
  applyDurable(draft, event, event.seq, data);
  const stage = stageOf(event);
  if (stage !== undefined) for (let index = added; index < draft.items.length; index += 1) draft.items[index] = { ...draft.items[index]!, stage };
}

/** The envelope's stage, read defensively; undefined outside a stage. */
export function stageOf(event: Envelope): StageRef | undefined {
  const scope = record(event.stage);
  const id = str(scope["id"]);
  if (id === undefined) return undefined;
  const branch = str(scope["branch"]);
  return branch === undefined ? { id, visit: num(scope["visit"]) ?? 1 } : { id, visit: num(scope["visit"]) ?? 1, branch };
}

/** One key per stage visit (and branch): items with the same key are shown together. */
export function stageKey(stage: StageRef | undefined): string {
  return stage === undefined ? "" : `${stage.branch ?? ""}/${stage.id}@${stage.visit}`;
}

function applyDurable(draft: Draft, event: Envelope, seq: number, data: Data): void {
  switch (event.type) {
    case "agent.message":
    case "agent.thought": {
      const kind = event.type === "agent.message" ? "text" : "thought";
      const session = str(data["session"]) ?? "";
      draft.streaming = draft.streaming.filter((s) => !(s.session === session && s.kind === kind));
      draft.items.push({ kind: kind === "text" ? "message" : "thought", seqs: [seq], text: str(data["text"]) ?? "" });
      return;
    }
    case "plan.updated":
      draft.items.push({ kind: "plan", seqs: [seq], entries: list(data["entries"]).map(planEntry) });
      return;
    case "tool.started":
    case "tool.completed":
      applyTool(draft, seq, event.type, data);
      return;
    case "permission.requested":
    case "permission.resolved":
      applyPermission(draft, seq, data);
      return;
    case "budget.updated":
      applyBudget(draft, seq, event);
      return;
    case "run.completed":
    case "run.failed":
    case "run.cancelled":
      draft.streaming = [];
      draft.items.push(endItem(seq, event.type, data));
      return;
    default:
      draft.items.push({ kind: "note", seqs: [seq], type: event.type, ...noteFor(event) });
  }
}

function applyDelta(draft: Draft, data: Data): void {
  const session = str(data["session"]) ?? "";
  const kind = data["kind"] === "thought" ? "thought" : "text";
  const text = str(data["text"]) ?? "";
  const index = draft.streaming.findIndex((s) => s.session === session && s.kind === kind);
  if (index === -1) draft.streaming.push({ session, kind, text });
  else draft.streaming[index] = { session, kind, text: draft.streaming[index]!.text + text };
}

function applyTool(draft: Draft, seq: number, type: string, data: Data): void {
  const call = str(data["call"]) ?? "";
  const at = draft.toolAt.get(call);
  const previous = at === undefined ? undefined : (draft.items[at] as ToolItem);
  const item: ToolItem = previous
    ? { ...previous, seqs: [...previous.seqs, seq] }
    : { kind: "tool", seqs: [seq], call, tool: str(data["tool"]) ?? "tool", status: "running", isError: false, timedOut: false, hasOutput: false };
  item.tool = str(data["tool"]) ?? item.tool;
  if (type === "tool.started") {
    item.toolKind = str(data["kind"]) ?? item.toolKind;
    item.title = str(data["title"]) ?? str(data["target"]) ?? item.title;
  } else {
    const status = data["status"];
    item.status = status === "failed" || status === "cancelled" ? status : "completed";
    item.isError = data["is_error"] === true;
    item.durationMs = num(data["duration_ms"]);
    item.exitCode = num(data["exit_code"]);
    item.timedOut = data["timed_out"] === true;
    item.preview = str(data["preview"]);
    item.outputChars = num(data["output_chars"]);
    item.hasOutput = str(data["output_file"]) !== undefined;
  }
  if (at === undefined) {
    draft.toolAt.set(call, draft.items.length);
    draft.items.push(item);
  } else draft.items[at] = item;
}

function applyPermission(draft: Draft, seq: number, data: Data): void {
  const call = str(data["call"]) ?? "";
  const at = draft.permissionAt.get(call);
  // A second request for the same call after the first was answered is a new line.
  const previous = at === undefined ? undefined : (draft.items[at] as PermissionItem);
  const open = previous !== undefined && previous.decision === undefined;
  const item: PermissionItem = open ? { ...previous, seqs: [...previous.seqs, seq] } : { kind: "permission", seqs: [seq], call, tool: str(data["tool"]) ?? "" };
  item.tool = str(data["tool"]) ?? item.tool;
  if (data["decision"] !== undefined) {
    item.decision = str(data["decision"]) ?? "?";
    item.by = str(data["by"]);
    item.rule = str(data["rule"]);
  }
  if (open) draft.items[at!] = item;
  else {
    draft.permissionAt.set(call, draft.items.length);
    draft.items.push(item);
  }
}

/**
 * A budget comes after every turn and tool call: one that stays in the tenth of the latest
 * budget row joins that row (which then shows its figures); one past it starts a new row.
 */
function applyBudget(draft: Draft, seq: number, event: Envelope): void {
  const tenth = budgetTenth(record(event.data));
  const note: NoteItem = { kind: "note", seqs: [seq], type: event.type, ...noteFor(event) };
  const latest = draft.budget;
  // A workflow's stages each show their own budget row.
  const stage = stageKey(stageOf(event));
  if (latest !== undefined && tenth <= latest.tenth && latest.stage === stage) {
    const row = draft.items[latest.at]!;
    draft.items[latest.at] = row.stage === undefined ? { ...note, seqs: [...row.seqs, seq] } : { ...note, seqs: [...row.seqs, seq], stage: row.stage };
    return;
  }
  draft.budget = { at: draft.items.length, tenth, stage };
  draft.items.push(note);
}

function planEntry(value: unknown): PlanEntry {
  const entry = record(value);
  return { content: str(entry["content"]) ?? "", status: str(entry["status"]) ?? "pending", priority: str(entry["priority"]) };
}

function endItem(seq: number, type: string, data: Data): EndItem {
  if (type === "run.completed") {
    const end: EndItem = { kind: "end", seqs: [seq], status: data["status"] === "stopped" ? "stopped" : "succeeded", costUsd: num(data["cost_usd"]), durationMs: num(data["duration_ms"]) };
    if (end.status === "stopped") {
      const stoppedBy = stoppedByWords(str(data["stopped_by"]), str(data["provider_error"]));
      if (stoppedBy !== undefined) end.stoppedBy = stoppedBy;
      if (typeof data["handed_back"] === "boolean") end.handedBack = data["handed_back"];
    }
    return end;
  }
  if (type === "run.cancelled") return { kind: "end", seqs: [seq], status: "cancelled", message: [str(data["by"]) && `by ${str(data["by"])}`, str(data["reason"])].filter(Boolean).join(": ") };
  const error = record(data["error"]);
  const end: EndItem = { kind: "end", seqs: [seq], status: "failed", errorCode: str(error["code"]) ?? "unknown", message: str(error["message"]) ?? "" };
  if (str(data["provider_error"]) !== undefined) end.providerError = str(data["provider_error"]);
  return end;
}
