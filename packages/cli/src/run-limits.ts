import type { AgentEntry, BatonConfig, RunLimits } from "@baton/engine";
import { formatDuration } from "@baton/engine/duration";
import { BatonError } from "@baton/engine/errors";
import { definedFields } from "@baton/protocol/core";
import { duration } from "./option-values.ts";

/** The variable that gives runs a timeout when neither --timeout nor the config does (CI). */
export const TIMEOUT_ENV = "BATON_TIMEOUT";

/** The limit options of `baton run`, as program.ts has read them (option-values.ts). */
export type LimitFlags = {
  /** Milliseconds. */
  timeout?: number;
  maxCost?: number;
  maxTokens?: number;
  maxToolCalls?: number;
  maxRequests?: number;
  maxRepeats?: number;
};

/**
 * A run's limits: each flag over the config's `[limits]`; the timeout also from BATON_TIMEOUT
 * (read like --timeout; empty is unset).
 *
 * @throws BatonError `usage` naming BATON_TIMEOUT for a value that is not a duration a timer can wait.
 */
export function resolveLimits(flags: LimitFlags, config: BatonConfig, env: Record<string, string | undefined>): RunLimits {
  const fromEnv = env[TIMEOUT_ENV] ? duration(TIMEOUT_ENV)(env[TIMEOUT_ENV]) : undefined;
  return definedFields({
    timeoutMs: flags.timeout ?? fromEnv ?? config.limits.timeout,
    costUsd: flags.maxCost ?? config.limits.max_cost_usd,
    tokens: flags.maxTokens ?? config.limits.max_tokens,
    toolCalls: flags.maxToolCalls ?? config.limits.max_tool_calls,
    requests: flags.maxRequests ?? config.limits.max_requests,
    maxRepeats: flags.maxRepeats ?? config.limits.max_repeats,
  });
}

/**
 * Refuses, before anything starts, a run whose limits cannot hold: an unattended run without
 * a timeout; without the inference proxy (`proxied`), a cost budget for an agent that reports
 * no cost, a token budget for one that reports no tokens, and any request cap (nothing counts
 * requests). Through the proxy, Baton measures tokens and cost itself.
 */
export function checkLimits(limits: RunLimits, agent: { name: string; entry: AgentEntry }, attended: boolean, proxied = false): void {
  if (!attended && limits.timeoutMs === undefined) {
    throw new BatonError("no_timeout", "an unattended run (no terminal on stdin, or --yes) needs a timeout", {
      hint: `pass --timeout 30m, set timeout = "30m" under [limits] in .baton/config.toml, or set ${TIMEOUT_ENV}`,
    });
  }
  if (limits.requests !== undefined && !proxied) {
    throw new BatonError("limit_unenforceable", `a request cap cannot be enforced for agent "${agent.name}": it does not reach its model through Baton's inference proxy`, {
      hint: `drop --max-requests (or max_requests), or turn the proxy on ([proxy] enabled = true) and say how the agent takes a base URL with proxy = { via = "env", … } in [agents.${agent.name}]`,
    });
  }
  if (proxied) return;
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
  if (limits.requests !== undefined) parts.push(`${limits.requests} model requests`);
  if (limits.maxRepeats !== undefined) parts.push(`${limits.maxRepeats} repeats`);
  return parts.length === 0 ? undefined : parts.join(", ");
}
