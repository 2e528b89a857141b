import { outputInEvent, type Envelope, type RunState } from "@baton/protocol/core";
import { formatCost, formatDuration, formatTokens } from "../render/style.ts";
import { visibleText } from "../render/terminal-text.ts";

/** One tool call as the tools panel lists it: from its `tool.started`, then its `tool.completed`. */
export type ToolCallRow = {
  call: string;
  tool: string;
  title?: string;
  /** `STAGE@VISIT` of a workflow stage's call (agents number calls per session, so ids repeat across stages). */
  where?: string;
  status: "running" | "completed" | "failed" | "cancelled";
  duration_ms?: number;
  preview?: string;
  /** The trace-store file of its whole output, relative to the run's folder. */
  output_file?: string;
  /** Its whole output when its event holds it (a preview as long as the output: ADR 0039). */
  output?: string;
};

export type PlanEntry = { content: string; status: string };

/** The panels of a run's view, in the order Tab goes through them (and their number keys). */
export const PANELS = ["timeline", "stages", "plan", "tools", "usage"] as const;
export type Panel = (typeof PANELS)[number];

/**
 * What the run view's panels show besides the timeline: the agent's latest plan and every tool
 * call, folded from the run's events. Kept as the events arrive, so a panel costs only its rows
 * on screen to draw.
 */
export class RunPanels {
  plan: PlanEntry[] = [];
  readonly calls: ToolCallRow[] = [];
  readonly #open = new Map<string, ToolCallRow>();

  add(event: Envelope): void {
    const data = event.data as Record<string, unknown>;
    if (event.type === "plan.updated" && Array.isArray(data["entries"])) {
      this.plan = (data["entries"] as Array<Record<string, unknown>>).map((entry) => ({ content: String(entry["content"] ?? ""), status: String(entry["status"] ?? "") }));
    }
    if (event.type === "tool.started" && typeof data["call"] === "string") {
      const row: ToolCallRow = { call: data["call"], tool: String(data["tool"] ?? ""), status: "running" };
      if (typeof data["title"] === "string") row.title = data["title"];
      if (event.stage !== undefined) row.where = `${event.stage.id}@${event.stage.visit}${event.stage.branch === undefined ? "" : `/${event.stage.branch}`}`;
      this.calls.push(row);
      this.#open.set(keyOf(data["call"], row.where), row);
    }
    if (event.type === "tool.completed" && typeof data["call"] === "string") {
      const where = event.stage === undefined ? undefined : `${event.stage.id}@${event.stage.visit}${event.stage.branch === undefined ? "" : `/${event.stage.branch}`}`;
      const key = keyOf(data["call"], where);
      const row = this.#open.get(key);
      if (row === undefined) return;
      this.#open.delete(key);
      row.status = data["status"] === "failed" || data["status"] === "cancelled" ? data["status"] : "completed";
      if (typeof data["duration_ms"] === "number") row.duration_ms = data["duration_ms"];
      if (typeof data["preview"] === "string") row.preview = data["preview"];
      if (typeof data["output_file"] === "string") row.output_file = data["output_file"];
      const output = outputInEvent(data);
      if (output !== undefined) row.output = output;
    }
  }
}

function keyOf(call: string, where: string | undefined): string {
  return `${where ?? ""} ${call}`;
}

/** The stages panel: one line per stage visit, with its status, time and tokens; and the gate that waits. */
export function stageLines(state: RunState): string[] {
  const stages = state.workflow.stages;
  if (stages.length === 0) return ["not a workflow run: it has no stages"];
  const lines = stages.map((visit) => {
    const name = `${visit.stage}@${visit.visit}${visit.branch === undefined ? "" : `/${visit.branch}`}`;
    const usage = visit.usage === undefined ? "" : ` · ${formatTokens(visit.usage.input_tokens, visit.usage.output_tokens)}`;
    const error = visit.error === undefined ? "" : ` · ${visit.error.code}: ${visit.error.message}`;
    return visibleText(`${mark(visit.status)} ${name.padEnd(16)} ${visit.handler.padEnd(8)} ${visit.status.padEnd(10)} ${formatDuration(visit.duration_ms)}${usage}${error}`);
  });
  const gate = state.workflow.gate;
  if (gate !== undefined) lines.push("", ...gateLines(state));
  return lines;
}

/** The gate a run waits at, and the keys that answer it. */
export function gateLines(state: RunState): string[] {
  const gate = state.workflow.gate;
  if (gate === undefined) return [];
  const options = gate.options.map((option) => (option.key === undefined ? option.label : `${option.label} (${option.key})`)).join(", ");
  return [visibleText(`gate ${gate.gate} waits: ${gate.question}`), visibleText(`y approve · n reject · t answer${options === "" ? "" : ` one of: ${options}`}${gate.freeform ? " (or free text)" : ""}`)];
}

/** The plan panel: the agent's whole latest plan. */
export function planLines(plan: readonly PlanEntry[]): string[] {
  if (plan.length === 0) return ["the agent has shared no plan"];
  return plan.map((entry) => visibleText(`${entry.status === "completed" ? "[x]" : entry.status === "in_progress" ? "[>]" : "[ ]"} ${entry.content}`));
}

/** The tools panel's line for one call. */
export function callLine(row: ToolCallRow): string {
  const where = row.where === undefined ? "" : `${row.where} `;
  const time = row.duration_ms === undefined ? "" : ` ${formatDuration(row.duration_ms)}`;
  const preview = row.preview === undefined ? "" : ` · ${row.preview.split("\n")[0] ?? ""}`;
  return visibleText(`${mark(row.status)} ${where}${row.call} ${row.tool}${row.title === undefined ? "" : ` ${row.title}`} (${row.status}${time})${preview}`);
}

/** The usage panel: tokens and cost, of the run and of each agent session. */
export function usageLines(state: RunState): string[] {
  const u = state.usage;
  const lines = [
    `tokens: ${u.input_tokens.toLocaleString("en-US")} in · ${u.output_tokens.toLocaleString("en-US")} out · ${u.cache_read_tokens.toLocaleString("en-US")} cache read · ${u.cache_write_tokens.toLocaleString("en-US")} cache write`,
    `cost: ${state.cost_usd === undefined ? "not reported" : formatCost(state.cost_usd)}`,
    `turns ${state.counts.turns} · messages ${state.counts.messages} · tool calls ${state.counts.tool_calls} (${state.counts.tool_failures} failed) · permission requests ${state.counts.permissions}`,
  ];
  const sessions = Object.entries(state.sessions);
  if (sessions.length > 0) lines.push("", "by session:");
  for (const [session, entry] of sessions) {
    lines.push(visibleText(`  ${session}: ${formatTokens(entry.usage.input_tokens, entry.usage.output_tokens)}${entry.cost_usd === undefined ? "" : ` · ${formatCost(entry.cost_usd)}`}`));
  }
  return lines;
}

function mark(status: string): string {
  if (status === "running") return "…";
  if (status === "succeeded" || status === "completed") return "✓";
  if (status === "failed") return "✗";
  if (status === "partially_succeeded") return "±";
  return "-";
}
