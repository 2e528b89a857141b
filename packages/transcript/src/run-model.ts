import { definedFields as defined, type Envelope } from "@baton/protocol/core";
import { numberText } from "./number-text.ts";

/** One tool call as the transcript shows it; `children` are the calls it started (a subagent's). */
export type ToolCallView = {
  call: string;
  tool: string;
  kind: string;
  title?: string;
  input?: unknown;
  status?: string;
  durationMs?: number;
  exitCode?: number;
  timedOut?: boolean;
  outputChars?: number;
  preview?: string;
  outputFile?: string;
  children: ToolCallView[];
};

export type TurnItem =
  | { kind: "prose"; text: string }
  | { kind: "thought"; text: string }
  | { kind: "tool"; tool: ToolCallView }
  | { kind: "note"; text: string };

export type TurnView = {
  session: string;
  number: number;
  reason: string;
  items: TurnItem[];
  stopReason?: string;
  durationMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number;
  /** 1, 2 or 3 for the run's three costliest turns. */
  costRank?: number;
};

/** A stage visit of a workflow (or the whole run for a run without stages). */
export type SectionView = {
  key: string;
  title?: string;
  /** What happens in the section, in order: turns, and notes between turns. */
  entries: ({ kind: "turn"; turn: TurnView } | { kind: "note"; text: string } | { kind: "result"; text: string; preview?: string; outputFile?: string })[];
};

export type RunView = {
  runId: string;
  number?: number;
  task?: string;
  agent?: string;
  model?: string;
  workflow?: string;
  sections: SectionView[];
  outcome?: { status: string; detail: string[] };
  commits: { sha: string; message: string; files: number; stage?: string }[];
  /** Each validation command's run (`validation.completed`), in order: round 0 checks the agent's task, later rounds its fixes. */
  validations: ValidationView[];
};

export type ValidationView = { command: string; passed: boolean; round: number; exitCode?: number; durationMs?: number; timedOut?: boolean; outputFile?: string };

type Data = Record<string, unknown>;

/**
 * Folds a run's durable events into what its transcript shows. Pure and single pass; text is
 * kept as logged (the renderer redacts and escapes it). Consecutive messages of one turn are
 * joined, so text the agent streamed across a boundary reads, and is redacted, as one.
 */
export function foldRunView(events: Iterable<Envelope>): RunView {
  const fold = runViewFold();
  for (const event of events) fold.add(event);
  return fold.view();
}

/** {@link foldRunView} one event at a time: a run's events folded as they are committed. */
export type RunViewFold = {
  /** Takes the run's next durable event, in the log's order. */
  add(event: Envelope): void;
  /** What the events added so far show; the fold may take more events after. */
  view(): RunView;
};

export function runViewFold(): RunViewFold {
  const view: RunView = { runId: "", sections: [], commits: [], validations: [] };
  const sections = new Map<string, SectionView>();
  const turns = new Map<string, TurnView>();
  const openTurn = new Map<string, TurnView>();
  const calls = new Map<string, ToolCallView>();
  const cost = new Map<string, number>();
  const costAtStart = new Map<TurnView, number>();

  const sectionOf = (event: Envelope): SectionView => {
    const key = event.stage === undefined ? "" : `${event.stage.id}#${event.stage.visit}${event.stage.branch === undefined ? "" : `@${event.stage.branch}`}`;
    let section = sections.get(key);
    if (section === undefined) {
      section = defined({ key, entries: [], title: event.stage === undefined ? undefined : stageTitle(event.stage) });
      sections.set(key, section);
      view.sections.push(section);
    }
    return section;
  };
  const note = (event: Envelope, text: string) => {
    const session = str(event.data["session"]);
    const turn = session === undefined ? undefined : openTurn.get(session);
    if (turn !== undefined) turn.items.push({ kind: "note", text });
    else sectionOf(event).entries.push({ kind: "note", text });
  };
  const turnFor = (event: Envelope): TurnView | undefined => {
    const session = str(event.data["session"]) ?? "";
    const number = num(event.data["turn"]);
    return (number === undefined ? undefined : turns.get(`${session}#${number}`)) ?? openTurn.get(session);
  };

  const add = (event: Envelope): void => {
    const data = event.data as Data;
    if (view.runId === "") view.runId = event.run;
    switch (event.type) {
      case "run.created":
        Object.assign(view, defined({ number: num(data["number"]), task: str(data["task"]), agent: str(data["agent"]), model: str(data["model"]), workflow: str(data["workflow"]) }));
        break;
      case "stage.started": {
        const section = sectionOf(event);
        const label = str(data["label"]);
        if (label !== undefined && section.title !== undefined) section.title = `${section.title}: ${label}`;
        break;
      }
      case "stage.completed":
      case "stage.failed": {
        const outcome = str(data["outcome"]) ?? "failed";
        const error = obj(data["error"]);
        const exit = num(data["exit_code"]);
        const text = [`Stage ${str(data["stage"]) ?? "?"} ${outcome}`, exit === undefined ? "" : `, exit code ${exit}`, error === undefined ? "" : `: ${str(error["message"]) ?? ""}`, data["summary"] === undefined ? "" : ` (${str(data["summary"]) ?? ""})`].join("");
        sectionOf(event).entries.push({ kind: "result", text, ...defined({ preview: str(data["preview"]), outputFile: str(data["output_file"]) }) });
        break;
      }
      case "turn.started": {
        const session = str(data["session"]) ?? "";
        const turn: TurnView = { session, number: num(data["turn"]) ?? 0, reason: str(data["reason"]) ?? "task", items: [] };
        turns.set(`${session}#${turn.number}`, turn);
        openTurn.set(session, turn);
        costAtStart.set(turn, cost.get(session) ?? 0);
        sectionOf(event).entries.push({ kind: "turn", turn });
        break;
      }
      case "agent.message":
      case "agent.thought": {
        const turn = turnFor(event);
        const kind = event.type === "agent.message" ? "prose" : "thought";
        const text = str(data["text"]) ?? "";
        if (turn === undefined) {
          note(event, text);
          break;
        }
        const last = turn.items.at(-1);
        if (last !== undefined && last.kind === kind) last.text += text;
        else turn.items.push({ kind, text });
        break;
      }
      case "tool.started": {
        const tool: ToolCallView = { call: str(data["call"]) ?? "", tool: str(data["tool"]) ?? "", kind: str(data["kind"]) ?? "other", children: [], ...defined({ title: str(data["title"]), input: data["input"] }) };
        calls.set(tool.call, tool);
        const parent = calls.get(str(data["parent_call"]) ?? "");
        if (parent !== undefined) parent.children.push(tool);
        else {
          const turn = turnFor(event);
          if (turn !== undefined) turn.items.push({ kind: "tool", tool });
          else note(event, `tool ${tool.tool} started outside a turn`);
        }
        break;
      }
      case "tool.completed": {
        const tool = calls.get(str(data["call"]) ?? "");
        if (tool === undefined) break;
        Object.assign(tool, defined({ status: str(data["status"]), durationMs: num(data["duration_ms"]), exitCode: num(data["exit_code"]), timedOut: data["timed_out"] === true ? true : undefined, outputChars: num(data["output_chars"]), preview: str(data["preview"]), outputFile: str(data["output_file"]) }));
        break;
      }
      case "usage.updated": {
        const session = str(data["session"]) ?? "";
        const amount = num(data["cost_usd"]);
        if (amount !== undefined) cost.set(session, data["basis"] === "delta" ? (cost.get(session) ?? 0) + amount : amount);
        break;
      }
      case "turn.completed": {
        const turn = turnFor(event);
        if (turn === undefined) break;
        const usage = obj(data["usage"]);
        Object.assign(turn, defined({ stopReason: str(data["stop_reason"]), durationMs: num(data["duration_ms"]), inputTokens: num(usage?.["input_tokens"]), outputTokens: num(usage?.["output_tokens"]) }));
        const spent = (cost.get(turn.session) ?? 0) - (costAtStart.get(turn) ?? 0);
        if (cost.has(turn.session)) turn.costUsd = Math.max(0, spent);
        const error = obj(data["error"]);
        if (error !== undefined) turn.items.push({ kind: "note", text: `The turn ended with an error: ${str(error["message"]) ?? ""}` });
        openTurn.delete(turn.session);
        break;
      }
      case "agent.compacted":
        note(event, compactionNote(data));
        break;
      case "validation.completed":
        view.validations.push(
          defined({ command: str(data["command"]) ?? "", passed: data["passed"] === true, round: num(data["round"]) ?? 0, exitCode: num(data["exit_code"]), durationMs: num(data["duration_ms"]), timedOut: data["timed_out"] === true ? true : undefined, outputFile: str(data["output_file"]) }),
        );
        break;
      case "validation.fix_requested": {
        const commands = Array.isArray(data["commands"]) ? data["commands"].filter((c): c is string => typeof c === "string") : [];
        note(event, `Validation failed: the agent is asked to fix it (round ${num(data["round"]) ?? "?"} of ${num(data["max_rounds"]) ?? "?"}): ${commands.join(", ")}`);
        break;
      }
      case "git.committed":
        view.commits.push({ sha: str(data["sha"]) ?? "", message: str(data["message"]) ?? "", files: Array.isArray(data["files"]) ? data["files"].length : 0, ...defined({ stage: str(data["stage"]) }) });
        break;
      case "run.completed":
      case "run.failed":
      case "run.cancelled":
      case "run.paused":
        view.outcome = outcomeOf(event.type, data);
        break;
      default: {
        const text = noteFor(event.type, data);
        if (text !== undefined) note(event, text);
      }
    }
  };
  return {
    add,
    view: () => {
      rankCostliest(view);
      return view;
    },
  };
}

function compactionNote(data: Data): string {
  const before = num(data["context_before"]);
  const after = num(data["context_after"]);
  const figures = before !== undefined && after !== undefined ? ` (context ${numberText(before)} → ${numberText(after)} tokens)` : "";
  return `The agent's context was compacted${data["inferred"] === true ? " (inferred from its context readings)" : ""}${figures}.`;
}

/** The events a reader should see between turns and tool calls, as one line each. */
function noteFor(type: string, data: Data): string | undefined {
  switch (type) {
    case "permission.resolved":
      return data["decision"] === "allow" || data["decision"] === "allow_once" || data["decision"] === "allow_always" ? undefined : `Permission for call ${str(data["call"]) ?? ""}: ${str(data["decision"]) ?? ""} (by ${str(data["by"]) ?? ""}, rule ${str(data["rule"]) ?? ""})`;
    case "question.asked":
      return `The agent asked: ${str(data["message"]) ?? ""}${data["awaiting"] === "person" ? " (waiting for a person)" : ""}`;
    case "question.answered": {
      const content = data["content"] !== null && typeof data["content"] === "object" ? ` ${JSON.stringify(data["content"])}` : "";
      const how = data["by"] === "human" ? `by ${str(data["who"]) ?? "a person"}` : `rule ${str(data["rule"]) ?? ""}`;
      return `Question ${str(data["id"]) ?? ""}: ${str(data["action"]) ?? ""}${content} (${how})`;
    }
    case "limit.warning":
      return `Limit warning: ${str(data["limit"]) ?? ""} at ${Math.round((num(data["fraction"]) ?? 0) * 100)}%`;
    case "limit.reached":
      return `Limit reached: ${str(data["limit"]) ?? ""} (${str(data["action"]) ?? ""})`;
    case "provider.error":
      return `Provider error (${str(data["class"]) ?? ""}): ${str(data["message"]) ?? ""}`;
    case "retry.scheduled":
      return `Retry ${num(data["attempt"]) ?? ""} in ${num(data["delay_ms"]) ?? 0} ms (${str(data["class"]) ?? ""})`;
    case "stall.detected":
      return `Stall: nothing from the agent for ${num(data["idle_ms"]) ?? 0} ms (${str(data["action"]) ?? ""})`;
    case "repeat.detected":
      return `Repeated call: ${str(data["tool"]) ?? ""} ${num(data["count"]) ?? ""} times in a row`;
    case "handback.requested":
      return `Hand-back requested (${str(data["reason"]) ?? ""})`;
    case "approval.resolved":
      return `Approval ${str(data["gate"]) ?? ""}: ${str(data["choice"]) ?? str(data["text"]) ?? ""} (by ${str(data["by"]) ?? ""})`;
    case "log":
      return data["level"] === "warn" || data["level"] === "error" ? `${str(data["level"]) ?? ""}: ${str(data["message"]) ?? ""}` : undefined;
    default:
      return undefined;
  }
}

function outcomeOf(type: string, data: Data): { status: string; detail: string[] } {
  const detail: string[] = [];
  const error = obj(data["error"]);
  if (error !== undefined) detail.push(`Error ${str(error["code"]) ?? ""}: ${str(error["message"]) ?? ""}`);
  if (data["stopped_by"] !== undefined) detail.push(`Stopped by: ${str(data["stopped_by"]) ?? ""}`);
  if (data["provider_error"] !== undefined) detail.push(`Provider error: ${str(data["provider_error"]) ?? ""}`);
  if (data["reason"] !== undefined) detail.push(`Reason: ${str(data["reason"]) ?? ""}`);
  if (data["by"] !== undefined) detail.push(`By: ${str(data["by"]) ?? ""}`);
  const usage = obj(data["usage"]);
  if (usage !== undefined) detail.push(`Tokens: ${fmt(num(usage["input_tokens"]))} in, ${fmt(num(usage["output_tokens"]))} out`);
  if (num(data["cost_usd"]) !== undefined) detail.push(`Cost: $${(num(data["cost_usd"]) ?? 0).toFixed(4)}`);
  if (num(data["duration_ms"]) !== undefined) detail.push(`Duration: ${((num(data["duration_ms"]) ?? 0) / 1000).toFixed(1)} s`);
  if (data["commit"] !== undefined) detail.push(`Commit: ${str(data["commit"]) ?? ""}`);
  const status = type === "run.completed" ? (str(data["status"]) ?? "completed") : type.slice("run.".length);
  return { status, detail };
}

/** Marks the three turns that cost the most (by cost where reported, else by tokens). */
function rankCostliest(view: RunView): void {
  const all = view.sections.flatMap((s) => s.entries.flatMap((e) => (e.kind === "turn" ? [e.turn] : [])));
  for (const turn of all) delete turn.costRank;
  const withCost = all.some((t) => t.costUsd !== undefined);
  const weight = (t: TurnView) => (withCost ? (t.costUsd ?? 0) : (t.inputTokens ?? 0) + (t.outputTokens ?? 0));
  const ranked = all.filter((t) => weight(t) > 0).sort((a, b) => weight(b) - weight(a));
  ranked.slice(0, 3).forEach((turn, index) => (turn.costRank = index + 1));
}

export function fmt(n: number | undefined): string {
  return n === undefined ? "?" : numberText(n);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function obj(value: unknown): Data | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : undefined;
}

/** A stage visit's section heading: its id, the visit past the first, the branch of a fan-out. */
function stageTitle(stage: NonNullable<Envelope["stage"]>): string {
  return `Stage ${stage.id}${stage.visit > 1 ? ` (visit ${stage.visit})` : ""}${stage.branch === undefined ? "" : `, branch ${stage.branch}`}`;
}
