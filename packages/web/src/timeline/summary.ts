import type { Envelope } from "@baton/protocol/core";
import { type Data, num, record, str } from "./data.ts";

export type Usage = { input_tokens: number; output_tokens: number; cache_read_tokens: number; cache_write_tokens: number };

/** The run's header: what, who, status, spend. Folded from the same events as the timeline. */
export type RunSummary = {
  number?: number;
  task?: string;
  agent?: string;
  model?: string;
  status: string;
  createdAt?: string;
  startedAt?: string;
  endedAt?: string;
  durationMs?: number;
  usage: Usage;
  costUsd?: number;
  error?: { code: string; message: string };
  /** Per-session figures: a `basis: "total"` report replaces its session's, a delta adds. */
  sessions: Record<string, { usage: Usage; costUsd?: number }>;
};

const USAGE_KEYS = ["input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens"] as const;

export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0, cache_read_tokens: 0, cache_write_tokens: 0 };
}

export function initialSummary(): RunSummary {
  return { status: "created", usage: emptyUsage(), sessions: {} };
}

const FINAL = new Set(["succeeded", "stopped", "failed", "cancelled"]);

export function isEnded(status: string): boolean {
  return FINAL.has(status);
}

/**
 * Applies one durable event to a summary in place (the caller owns the copy). Mirrors the
 * protocol's run-state fold, which cannot be bundled here: it pulls the zod catalog in.
 */
export function applyToSummary(summary: RunSummary, event: Envelope): void {
  const data = record(event.data);
  const ended = isEnded(summary.status);
  switch (event.type) {
    case "run.created":
      summary.number = num(data["number"]) ?? summary.number;
      summary.task = str(data["task"]) ?? summary.task;
      summary.agent = str(data["agent"]) ?? summary.agent;
      summary.model = str(data["model"]) ?? summary.model;
      summary.createdAt = event.at;
      return;
    case "run.started":
      summary.startedAt ??= event.at;
      if (ended) return;
      summary.status = "running";
      delete summary.endedAt;
      delete summary.durationMs;
      return;
    case "run.paused":
      if (!ended) summary.status = "paused";
      return;
    case "run.completed":
      if (ended) return;
      summary.status = data["status"] === "stopped" ? "stopped" : "succeeded";
      summary.endedAt = event.at;
      summary.durationMs = num(data["duration_ms"]);
      return;
    case "run.failed": {
      if (ended) return;
      const error = record(data["error"]);
      summary.status = "failed";
      summary.endedAt = event.at;
      summary.error = { code: str(error["code"]) ?? "unknown", message: str(error["message"]) ?? "" };
      return;
    }
    case "run.cancelled":
      if (ended) return;
      summary.status = "cancelled";
      summary.endedAt = event.at;
      return;
    case "usage.updated":
      applyUsage(summary, data);
      return;
    default:
      return;
  }
}

function applyUsage(summary: RunSummary, data: Data): void {
  const key = str(data["session"]) ?? "";
  const total = data["basis"] === "total";
  // Session ids come from the log: a session named `__proto__` must stay an ordinary entry.
  const sessions = new Map(Object.entries(summary.sessions));
  const previous = sessions.get(key) ?? { usage: emptyUsage() };
  const session: { usage: Usage; costUsd?: number } = { usage: { ...previous.usage }, costUsd: previous.costUsd };
  for (const field of USAGE_KEYS) {
    const value = count(data[field]);
    if (value !== undefined) session.usage[field] = total ? value : session.usage[field] + value;
  }
  const cost = count(data["cost_usd"]);
  if (cost !== undefined) session.costUsd = total ? cost : (session.costUsd ?? 0) + cost;
  sessions.set(key, session);
  summary.sessions = Object.fromEntries(sessions);
  const all = [...sessions.values()];
  const usage = emptyUsage();
  for (const field of USAGE_KEYS) usage[field] = all.reduce((sum, s) => sum + s.usage[field], 0);
  summary.usage = usage;
  const costs = all.flatMap((s) => (s.costUsd === undefined ? [] : [s.costUsd]));
  if (costs.length > 0) summary.costUsd = costs.reduce((sum, c) => sum + c, 0);
}

function count(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n >= 0 ? n : undefined;
}
