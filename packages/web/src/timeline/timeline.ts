import type { Envelope } from "@baton/protocol/core";
import { stoppedByWords } from "../format/limits.ts";
import { type Data, list, num, record, str } from "./data.ts";
import type { EndItem, NoteItem, PermissionItem, PlanEntry, QuestionField, QuestionItem, StageRef, StreamingText, TimelineItem, ToolItem } from "./items.ts";
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
  /** A person's inputs (steering) by id, as the run's events tell what came of them. */
  inputs: ReadonlyMap<string, InputState>;
  /** Usage over the run's time (after each usage report) and per turn: what the chart draws. */
  usage: UsageSeries;
  /** The turns open now (from turn.started to its turn.completed), the latest last: items added meanwhile belong to it. A mid-turn prompt opens a turn beside the running one. */
  turns: readonly number[];
};

export type InputState = { status: "queued" | "delivered" | "rejected"; how?: string; code?: string };

/** `points`: the run's totals after each usage report (time in ms); `turns`: tokens and cost each turn added. */
export type UsageSeries = {
  points: ReadonlyArray<{ at: number; tokens: number; costUsd: number }>;
  turns: ReadonlyArray<{ turn: number; tokens: number; costUsd: number }>;
};

export function initialTimeline(): TimelineState {
  return {
    lastSeq: 0,
    items: [],
    streaming: [],
    summary: initialSummary(),
    toolAt: new Map(),
    permissionAt: new Map(),
    budget: undefined,
    inputs: new Map(),
    usage: { points: [], turns: [] },
    turns: [],
  };
}

type Draft = { -readonly [K in keyof TimelineState]: TimelineState[K] } & {
  items: TimelineItem[];
  streaming: StreamingText[];
  toolAt: Map<string, number>;
  permissionAt: Map<string, number>;
  inputs: Map<string, InputState>;
  usage: { points: Array<UsageSeries["points"][number]>; turns: Array<UsageSeries["turns"][number]> };
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
    inputs: new Map(state.inputs),
    usage: { points: [...state.usage.points], turns: [...state.usage.turns] },
    turns: state.turns,
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
  const before = spend(draft.summary);
  applyToSummary(draft.summary, event);
  if (event.type === "usage.updated") applyUsage(draft, event, before);
  applyInput(draft, event.type, data);
  const added = draft.items.length;
  const number = num(data["turn"]);
  if (event.type === "turn.started" && number !== undefined) draft.turns = [...draft.turns.filter((open) => open !== number), number];
  const turn = draft.turns.at(-1);
  if (event.type === "turn.completed") draft.turns = draft.turns.filter((open) => open !== (number ?? turn));
  if (event.type === "agent.finished" || isEnded(draft.summary.status)) draft.turns = [];
  applyDurable(draft, event, event.seq, data);
  const stage = stageOf(event);
  for (let index = added; index < draft.items.length; index += 1) {
    const item = draft.items[index]!;
    if (stage !== undefined) draft.items[index] = { ...item, stage };
    if (turn !== undefined && item.turn === undefined) draft.items[index] = { ...draft.items[index]!, turn };
  }
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
    case "question.asked":
    case "question.answered":
      applyQuestion(draft, seq, event.type, data);
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

function spend(summary: RunSummary): { tokens: number; costUsd: number } {
  return { tokens: summary.usage.input_tokens + summary.usage.output_tokens, costUsd: summary.cost_usd ?? 0 };
}

/** A usage report adds a point at its time, and what it added to its turn (or the last turn). */
function applyUsage(draft: Draft, event: Envelope, before: { tokens: number; costUsd: number }): void {
  const after = spend(draft.summary);
  const at = Date.parse(event.at);
  if (Number.isFinite(at)) draft.usage.points.push({ at, ...after });
  const turn = draft.turns.at(-1) ?? draft.usage.turns.at(-1)?.turn ?? 1;
  const last = draft.usage.turns.at(-1);
  const tokens = after.tokens - before.tokens;
  const costUsd = after.costUsd - before.costUsd;
  if (last !== undefined && last.turn === turn) draft.usage.turns[draft.usage.turns.length - 1] = { turn, tokens: last.tokens + tokens, costUsd: last.costUsd + costUsd };
  else draft.usage.turns.push({ turn, tokens, costUsd });
}

function applyInput(draft: Draft, type: string, data: Data): void {
  const id = str(data["id"]);
  if (id === undefined) return;
  if (type === "input.queued") draft.inputs.set(id, { status: "queued" });
  else if (type === "input.delivered") draft.inputs.set(id, { status: "delivered", how: str(data["how"]) ?? "" });
  else if (type === "input.rejected") draft.inputs.set(id, { status: "rejected", code: str(data["code"]) ?? "" });
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
  if (data["awaiting"] === "person") {
    item.awaitingPerson = true;
    const options = list(data["options"]).map(record).map((option) => ({ id: str(option["id"]) ?? "", kind: str(option["kind"]) ?? "", name: str(option["name"]) ?? "" }));
    item.options = options.filter((option) => option.id !== "" && (option.kind.startsWith("allow") || option.kind.startsWith("reject")));
    const timeout = num(data["timeout_ms"]);
    if (timeout !== undefined) item.timeoutMs = timeout;
  }
  if (data["decision"] !== undefined) {
    item.decision = str(data["decision"]) ?? "?";
    item.by = str(data["by"]);
    item.rule = str(data["rule"]);
    const who = str(data["who"]);
    if (who !== undefined) item.who = who;
  }
  if (open) draft.items[at!] = item;
  else {
    draft.permissionAt.set(call, draft.items.length);
    draft.items.push(item);
  }
}

/** A question's answer joins the item its `question.asked` made (ids are the run's own, never reused). */
function applyQuestion(draft: Draft, seq: number, type: string, data: Data): void {
  const id = str(data["id"]) ?? "";
  if (type === "question.asked") {
    const item: QuestionItem = { kind: "question", seqs: [seq], id, message: str(data["message"]) ?? "", fields: list(data["fields"]).map(record).map(questionField) };
    if (data["awaiting"] === "person") item.awaitingPerson = true;
    const timeout = num(data["timeout_ms"]);
    if (timeout !== undefined) item.timeoutMs = timeout;
    draft.items.push(item);
    return;
  }
  const at = draft.items.findLastIndex((item) => item.kind === "question" && item.id === id);
  const previous = at === -1 ? undefined : (draft.items[at] as QuestionItem);
  const item: QuestionItem = previous === undefined ? { kind: "question", seqs: [seq], id, message: "", fields: [] } : { ...previous, seqs: [...previous.seqs, seq] };
  item.action = str(data["action"]) ?? "?";
  const content = data["content"];
  if (content !== null && typeof content === "object" && !Array.isArray(content)) item.content = content as Record<string, unknown>;
  for (const key of ["by", "who", "rule", "reason"] as const) {
    const value = str(data[key]);
    if (value !== undefined) item[key] = value;
  }
  if (previous === undefined) draft.items.push(item);
  else draft.items[at] = item;
}

function questionField(data: Data): QuestionField {
  const field: QuestionField = { name: str(data["name"]) ?? "", type: str(data["type"]) ?? "string", required: data["required"] === true };
  const title = str(data["title"]);
  if (title !== undefined) field.title = title;
  const description = str(data["description"]);
  if (description !== undefined) field.description = description;
  const options = list(data["options"]).map(record).map((option) => ({ value: str(option["value"]) ?? "", ...optionalText(option) }));
  if (options.length > 0) field.options = options;
  const min = num(data["min"]);
  if (min !== undefined) field.min = min;
  const max = num(data["max"]);
  if (max !== undefined) field.max = max;
  return field;
}

function optionalText(option: Data): { title?: string; description?: string } {
  const text: { title?: string; description?: string } = {};
  const title = str(option["title"]);
  if (title !== undefined) text.title = title;
  const description = str(option["description"]);
  if (description !== undefined) text.description = description;
  return text;
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
    // The row stays where it is: in its stage and its turn.
    const merged: TimelineItem = { ...note, seqs: [...row.seqs, seq] };
    if (row.stage !== undefined) merged.stage = row.stage;
    if (row.turn !== undefined) merged.turn = row.turn;
    draft.items[latest.at] = merged;
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
