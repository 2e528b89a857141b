import type { SessionEnd } from "../acp/agent-session.ts";
import type { LiveSession, TurnEnd, TurnReason } from "../acp/live-session.ts";
import { classifyTurnFailure, type ProviderErrorClass, type ProviderRules } from "../provider/classify.ts";
import type { LimitName } from "./limits.ts";

/** Why the agent was asked to hand back. */
export type Handback = { reason: "limit"; limit: LimitName } | { reason: "repeat" } | { reason: "provider"; class: ProviderErrorClass };

/** The run's error when the provider stopped it: its class and its last words. */
export function providerStopError(providerClass: ProviderErrorClass, lastWords: string | undefined): { code: string; message: string } {
  const words = lastWords === undefined ? "" : `: ${lastWords}`;
  return { code: "provider_error", message: `the model provider stopped the run (${providerClass})${words}` };
}

/** A session stopped before its work was done: at a limit, by a loop, by the provider. */
export function stoppedEnd(handback: Handback, handedBack: boolean, lastProviderWords: string | undefined): SessionEnd {
  if (handback.reason === "limit") return { kind: "stopped", by: handback.limit, handedBack };
  if (handback.reason === "repeat") return { kind: "stopped", by: "repeats", handedBack };
  return { kind: "stopped", by: "provider", providerError: handback.class, handedBack, error: providerStopError(handback.class, lastProviderWords) };
}

/** The hand-back turn ended: well (`handedBack`), or not (a provider failure, another stop reason). */
export function afterHandbackEnd(handback: Handback | undefined, handedBack: boolean, lastProviderWords: string | undefined): SessionEnd {
  const asked = handback ?? { reason: "repeat" as const };
  if (asked.reason === "provider" && !handedBack) return { kind: "failed", error: providerStopError(asked.class, lastProviderWords), providerError: asked.class };
  return stoppedEnd(asked, handedBack, lastProviderWords);
}

/** The agent's process ended mid-turn: its exit, its last words, and the provider's class when they name one. */
export function exitedEnd(live: LiveSession, end: Extract<TurnEnd, { kind: "exited" }>, rules: ProviderRules): SessionEnd {
  live.closeOpen("failed", end.error);
  const failure = classifyTurnFailure({ stderr: end.stderr.slice(-20), lastWords: live.turnWords }, rules);
  if (failure.class === "other") return { kind: "failed", error: end.error };
  return { kind: "failed", error: end.error, providerError: failure.class };
}

/** The next prompt the conductor sends, and why. */
export type Next = { text: string; reason: TurnReason };
