import { BatonError, formatDuration, parseDuration, type AgentEntry, type BatonConfig, type RunLimits } from "@baton/engine";

/** The variable that gives runs a timeout when neither --timeout nor the config does (CI). */
export const TIMEOUT_ENV = "BATON_TIMEOUT";

export type LimitFlags = {
  timeout?: string;
  maxCost?: string;
  maxTokens?: string;
  maxToolCalls?: string;
  maxRepeats?: string;
};

/**
 * A run's limits: each flag over the config's `[limits]`; the timeout also from BATON_TIMEOUT.
 *
 * @throws BatonError `usage` naming the flag for a value that is not a duration or a number.
 */
export function resolveLimits(flags: LimitFlags, config: BatonConfig, env: Record<string, string | undefined>): RunLimits {
  const limits: RunLimits = {};
  const timeout = flags.timeout !== undefined ? durationFlag("--timeout", flags.timeout) : env[TIMEOUT_ENV] ? durationFlag(TIMEOUT_ENV, env[TIMEOUT_ENV]) : config.limits.timeout;
  if (timeout !== undefined) limits.timeoutMs = timeout;
  const cost = flags.maxCost !== undefined ? numberFlag("--max-cost", flags.maxCost, { integer: false }) : config.limits.max_cost_usd;
  if (cost !== undefined) limits.costUsd = cost;
  const tokens = flags.maxTokens !== undefined ? numberFlag("--max-tokens", flags.maxTokens) : config.limits.max_tokens;
  if (tokens !== undefined) limits.tokens = tokens;
  const calls = flags.maxToolCalls !== undefined ? numberFlag("--max-tool-calls", flags.maxToolCalls) : config.limits.max_tool_calls;
  if (calls !== undefined) limits.toolCalls = calls;
  const repeats = flags.maxRepeats !== undefined ? numberFlag("--max-repeats", flags.maxRepeats, { min: 2 }) : config.limits.max_repeats;
  if (repeats !== undefined) limits.maxRepeats = repeats;
  return limits;
}

/**
 * Refuses, before anything starts, a run whose limits cannot hold: an unattended run without
 * a timeout, a cost budget for an agent that reports no cost, a token budget for one that
 * reports no tokens.
 */
export function checkLimits(limits: RunLimits, agent: { name: string; entry: AgentEntry }, attended: boolean): void {
  if (!attended && limits.timeoutMs === undefined) {
    throw new BatonError("no_timeout", "an unattended run (no terminal on stdin, or --yes) needs a timeout", {
      hint: `pass --timeout 30m, set timeout = "30m" under [limits] in .baton/config.toml, or set ${TIMEOUT_ENV}`,
    });
  }
  if (limits.costUsd !== undefined && !agent.entry.reports_cost) {
    throw new BatonError("limit_unenforceable", `a cost budget cannot be enforced for agent "${agent.name}": it reports no cost`, {
      hint: `drop --max-cost (or max_cost_usd), limit --max-tokens or --timeout instead, or set reports_cost = true in [agents.${agent.name}] if it does report cost`,
    });
  }
  if (limits.tokens !== undefined && !agent.entry.reports_tokens) {
    throw new BatonError("limit_unenforceable", `a token budget cannot be enforced for agent "${agent.name}": it reports no token usage`, {
      hint: `drop --max-tokens (or max_tokens), limit --timeout or --max-tool-calls instead, or set reports_tokens = true in [agents.${agent.name}] if it does report tokens`,
    });
  }
}

/** One line for the progress view: the limits a run starts with. */
export function describeLimits(limits: RunLimits): string | undefined {
  const parts: string[] = [];
  if (limits.timeoutMs !== undefined) parts.push(`timeout ${formatDuration(limits.timeoutMs)}`);
  if (limits.costUsd !== undefined) parts.push(`cost $${limits.costUsd}`);
  if (limits.tokens !== undefined) parts.push(`${limits.tokens} tokens`);
  if (limits.toolCalls !== undefined) parts.push(`${limits.toolCalls} tool calls`);
  if (limits.maxRepeats !== undefined) parts.push(`${limits.maxRepeats} repeats`);
  return parts.length === 0 ? undefined : parts.join(", ");
}

function durationFlag(name: string, value: string): number {
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) {
    throw new BatonError("usage", `${name}: "${value}" is not a duration`, { hint: 'write it like "90s", "30m" or "1h30m" (a bare number is seconds)' });
  }
  return ms;
}

function numberFlag(name: string, value: string, options: { integer?: boolean; min?: number } = {}): number {
  const number = Number(value);
  const integer = options.integer ?? true;
  const min = options.min ?? (integer ? 1 : 0);
  if (value.trim() === "" || !Number.isFinite(number) || (integer && !Number.isInteger(number)) || number < min || (!integer && number <= 0)) {
    throw new BatonError("usage", `${name}: "${value}" is not ${integer ? `a whole number of at least ${min}` : "a positive number"}`, { hint: `pass ${name} with a number, like ${name} ${integer ? Math.max(min, 50) : "2.5"}` });
  }
  return number;
}
