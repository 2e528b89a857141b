import type { z } from "zod";
import type { stepValueSchemas } from "./step-schema.ts";
import { sendUpdate } from "./turn-context.ts";
import type { TurnContext } from "./turn-context.ts";

/** A plausible context window for `usage_update.size`; real agents report their model's. */
export const CONTEXT_WINDOW_TOKENS = 200_000;

type UsageStep = z.infer<typeof stepValueSchemas.usage>;

/**
 * `usage`: one model call. Adds its tokens to the turn (reported in the prompt response), then
 * sends a `usage_update` with the session's cumulative cost and, as `used`, the context after
 * the call: the call's input and output, since a call is sent the whole context. So Codex
 * reports it, and the reports of a turn add up to its tokens (a step with cost only is a
 * report of spend, `used` 0).
 */
export async function reportUsage(turn: TurnContext, step: UsageStep): Promise<void> {
  const input = step.input_tokens ?? 0;
  const output = step.output_tokens ?? 0;
  turn.usage.inputTokens += input;
  turn.usage.outputTokens += output;
  turn.usage.reported = true;
  const session = turn.session;
  session.costUsd = roundMicros(session.costUsd + (step.cost_usd ?? 0));
  await sendUpdate(turn, {
    sessionUpdate: "usage_update",
    used: Math.min(CONTEXT_WINDOW_TOKENS, input + output),
    size: CONTEXT_WINDOW_TOKENS,
    cost: { amount: session.costUsd, currency: "USD" },
  });
}

/** Sums of binary fractions drift (0.1 + 0.2); a millionth of a dollar is fine enough. */
function roundMicros(amount: number): number {
  return Math.round(amount * 1e6) / 1e6;
}
