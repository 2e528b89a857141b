import type { RunState } from "@baton/protocol";

export type LimitName = "time" | "cost" | "tokens" | "tool_calls" | "requests";

/** A run's limits; an absent one is not enforced. */
export type RunLimits = {
  timeoutMs?: number;
  costUsd?: number;
  tokens?: number;
  toolCalls?: number;
  /** Model requests, counted (and admitted) at the inference proxy: request N+1 is refused. */
  requests?: number;
  /** The same tool call this many times in a row is a loop (see repeat-watch.ts). */
  maxRepeats?: number;
};

export type LimitUse = { limit: LimitName; used: number; max: number; fraction: number };

/** The shares of the most used limit at which Baton warns. */
export const WARNING_THRESHOLDS = [0.6, 0.8] as const;
/** The share at which the agent is asked to hand back. */
export const HANDBACK_FRACTION = 0.95;

/** Input + output tokens the run's folded events report: each turn's, once it has ended. */
export function reportedTokens(state: RunState): number {
  return state.usage.input_tokens + state.usage.output_tokens;
}

/**
 * What the run has used as measured outside its folded events: tokens when more is known of
 * them than the ended turns report, the cost and requests the inference proxy counted (see
 * `LimitWatch`). The larger of these and the agent's own reports counts.
 */
export type MeasuredUse = { tokens?: number; costUsd?: number; requests?: number };

/** What a run has used of each limit it has, from its folded events, its elapsed time and what was measured besides. */
export function limitUses(limits: RunLimits, state: RunState, elapsedMs: number, measured: MeasuredUse = {}): LimitUse[] {
  const uses: LimitUse[] = [];
  const add = (limit: LimitName, used: number, max: number | undefined) => {
    if (max !== undefined && max > 0) uses.push({ limit, used, max, fraction: used / max });
  };
  add("time", elapsedMs, limits.timeoutMs);
  add("cost", Math.max(state.cost_usd ?? 0, measured.costUsd ?? 0), limits.costUsd);
  add("tokens", Math.max(reportedTokens(state), measured.tokens ?? 0), limits.tokens);
  add("tool_calls", state.counts.tool_calls, limits.toolCalls);
  add("requests", measured.requests ?? 0, limits.requests);
  return uses;
}

/** The limit with the largest share used, if the run has any limit. */
export function mostUsed(uses: readonly LimitUse[]): LimitUse | undefined {
  let best: LimitUse | undefined;
  for (const use of uses) if (best === undefined || use.fraction > best.fraction) best = use;
  return best;
}

/** Limits that count events, where the cap itself is allowed and only the one past it is over. */
const COUNTS: ReadonlySet<LimitName> = new Set(["tool_calls", "requests"]);

/**
 * Whether a limit is near enough to ask for a hand-back: 95% of it, except that a count of tool
 * calls or model requests hands back one (or 5%) before its cap, since 95% of a small cap is
 * the cap itself.
 */
export function nearLimit(use: LimitUse): boolean {
  if (COUNTS.has(use.limit)) return use.used >= use.max - Math.max(1, Math.floor(use.max * (1 - HANDBACK_FRACTION)));
  return use.fraction >= HANDBACK_FRACTION;
}

/** At the limit: its whole share used; a cap on tool calls or requests allows `max` of them, so only the one past it. */
export function atLimit(use: LimitUse): boolean {
  return COUNTS.has(use.limit) ? use.used > use.max : use.used >= use.max;
}

/** The limits as `budget.updated` and `run.created` carry them. */
export function limitsData(limits: RunLimits): Record<string, number> {
  const data: Record<string, number> = {};
  if (limits.timeoutMs !== undefined) data["timeout_ms"] = limits.timeoutMs;
  if (limits.costUsd !== undefined) data["cost_usd"] = limits.costUsd;
  if (limits.tokens !== undefined) data["tokens"] = limits.tokens;
  if (limits.toolCalls !== undefined) data["tool_calls"] = limits.toolCalls;
  if (limits.requests !== undefined) data["requests"] = limits.requests;
  if (limits.maxRepeats !== undefined) data["max_repeats"] = limits.maxRepeats;
  return data;
}
