// How far a token budget holds, for an agent whose token counts arrive the way its entry says.
import type { RunLimits } from "./limits.ts";

/**
 * When an agent's token counts reach Baton: `turn`, with each turn's answer (the prompt
 * response's `usage`), or `call`, after each model call as well (its `usage_update.used` is
 * that call's tokens, input and output: Codex). A budget is checked whenever counts arrive, so
 * it can be overshot by what an agent spends before its next count: a whole turn, or one call.
 */
export type TokenReports = "turn" | "call";

/**
 * A token budget under this is small against one turn. Every model call of a coding agent
 * carries its system prompt and tool definitions, and a turn that makes one tool call takes
 * two calls: measured against the model twin, 19,111 tokens for Claude Code, 12,335 for Codex,
 * 2,443 for OpenCode. Such a budget can go in the first turn, and be overshot by most of it.
 */
export const SMALL_TOKEN_BUDGET = 20_000;

/** How far a token budget can overshoot with counts that arrive so, and why. */
export function tokenOvershoot(reports: TokenReports): string {
  return reports === "call"
    ? "by about one model call, since the counts arrive after each call"
    : "by up to one whole turn (every model call in it), since the counts arrive when a turn ends";
}

/**
 * The `log` warning for a token budget that is small against one turn (see
 * {@link SMALL_TOKEN_BUDGET}), or undefined for none or a larger one.
 */
export function smallTokenBudgetWarning(limits: RunLimits, agent: string, reports: TokenReports = "turn"): { level: "warn"; code: string; message: string } | undefined {
  const budget = limits.tokens;
  if (budget === undefined || budget >= SMALL_TOKEN_BUDGET) return undefined;
  return {
    level: "warn",
    code: "token_budget_small",
    message:
      `a budget of ${budget.toLocaleString("en")} tokens is small against one turn of a coding agent (often ${SMALL_TOKEN_BUDGET.toLocaleString("en")} tokens or more: ` +
      `every model call carries its system prompt and tools); with ${agent} it can be overshot ${tokenOvershoot(reports)}`,
  };
}
