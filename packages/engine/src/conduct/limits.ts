import type { RunState } from "@baton/protocol";

export type LimitName = "time" | "cost" | "tokens" | "tool_calls";

/** A run's limits; an absent one is not enforced. */
export type RunLimits = {
  timeoutMs?: number;
  costUsd?: number;
  tokens?: number;
  toolCalls?: number;
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
 * What a run has used of each limit it has, from its folded events and its elapsed time;
 * `tokens` when more is known of them than the ended turns report (see `LimitWatch`).
 */
export function limitUses(limits: RunLimits, state: RunState, elapsedMs: number, tokens: number = reportedTokens(state)): LimitUse[] {
  const uses: LimitUse[] = [];
  const add = (limit: LimitName, used: number, max: number | undefined) => {
    if (max !== undefined && max > 0) uses.push({ limit, used, max, fraction: used / max });
  };
  add("time", elapsedMs, limits.timeoutMs);
  add("cost", state.cost_usd ?? 0, limits.costUsd);
  add("tokens", tokens, limits.tokens);
  add("tool_calls", state.counts.tool_calls, limits.toolCalls);
  return uses;
}

/** The limit with the largest share used, if the run has any limit. */
export function mostUsed(uses: readonly LimitUse[]): LimitUse | undefined {
  let best: LimitUse | undefined;
  for (const use of uses) if (best === undefined || use.fraction > best.fraction) best = use;
  return best;
}

/**
 * Whether a limit is near enough to ask for a hand-back: 95% of it, except that a count of tool
 * calls hands back one call (or 5%) before its cap, since 95% of a small cap is the cap itself.
 */
export function nearLimit(use: LimitUse): boolean {
  if (use.limit === "tool_calls") return use.used >= use.max - Math.max(1, Math.floor(use.max * (1 - HANDBACK_FRACTION)));
  return use.fraction >= HANDBACK_FRACTION;
}

/** At the limit: its whole share used; a cap on tool calls allows `max` calls, so only the call past it. */
export function atLimit(use: LimitUse): boolean {
  return use.limit === "tool_calls" ? use.used > use.max : use.used >= use.max;
}

/** The limits as `budget.updated` and `run.created` carry them. */
export function limitsData(limits: RunLimits): Record<string, number> {
  const data: Record<string, number> = {};
  if (limits.timeoutMs !== undefined) data["timeout_ms"] = limits.timeoutMs;
  if (limits.costUsd !== undefined) data["cost_usd"] = limits.costUsd;
  if (limits.tokens !== undefined) data["tokens"] = limits.tokens;
  if (limits.toolCalls !== undefined) data["tool_calls"] = limits.toolCalls;
  if (limits.maxRepeats !== undefined) data["max_repeats"] = limits.maxRepeats;
  return data;
}
