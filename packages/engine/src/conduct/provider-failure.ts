import { definedFields } from "@baton/protocol/core";
import type { SessionEnd } from "../acp/agent-session.ts";
import type { LiveSession, TurnEnd, TurnReason } from "../acp/live-session.ts";
import type { ProviderClassification, ProviderErrorClass } from "../provider/classify.ts";
import type { ConductSink } from "./conductor.ts";
import type { Interrupt } from "./interrupts.ts";
import { resendPrompt } from "./prompts.ts";
import { decideRetry, type RetrySchedule } from "./retry-policy.ts";
import type { Handback, Next } from "./session-ends.ts";

/** What the provider-failure policy needs of its conductor. */
export type ProviderFailureHost = {
  sink: ConductSink;
  task: string;
  retry: RetrySchedule;
  fallbackModel?: string | undefined;
  random?: (() => number) | undefined;
  /** Time left before the run's timeout, in ms; undefined without one. */
  timeLeft(): number | undefined;
  /** Waits `ms`, cut short by a cancel or a limit (returned). */
  wait(ms: number): Promise<Interrupt | undefined>;
  betweenTurns(interrupt: Interrupt, next: Next): Next | SessionEnd;
  handbackFor(handback: Handback, why: string): Next;
  afterHandback(handedBack: boolean): SessionEnd;
};

/**
 * A turn failed on the provider: record it, then wait and resend, switch to the fallback
 * model, or ask for a hand-back. Keeps the resends so far, by class (a switch to the fallback
 * model starts them over), and the words of the last failure for the run's error.
 */
export class ProviderFailures {
  readonly #host: ProviderFailureHost;
  readonly #attempts = new Map<ProviderErrorClass, number>();
  #fallbackTried = false;
  /** The words of the last provider failure, for the run's error when it ends on one. */
  lastWords: string | undefined;

  constructor(host: ProviderFailureHost) {
    this.#host = host;
  }

  /** Returns the next prompt, or how the session ends. */
  async after(live: LiveSession, turn: number, reason: TurnReason, end: TurnEnd, failure: ProviderClassification, next: Next): Promise<Next | SessionEnd> {
    const host = this.#host;
    host.sink.append("provider.error", {
      session: live.id,
      turn,
      class: failure.class,
      ...definedFields({ status: failure.status, retry_after_ms: failure.retryAfterMs }),
      source: failure.source,
      message: failure.message,
    });
    this.lastWords = failure.message;
    if (reason === "handback") return host.afterHandback(false);
    if (failure.class === "other") {
      const message = end.kind === "error" ? `${end.error.message} (JSON-RPC ${end.error.code})` : failure.message;
      return { kind: "failed", error: { code: "agent_error", message } };
    }
    const attempt = (this.#attempts.get(failure.class) ?? 0) + 1;
    const decision = decideRetry(host.retry, failure.class, attempt, failure.retryAfterMs, host.random);
    if (decision.resend) {
      const timeLeft = host.timeLeft();
      if (timeLeft !== undefined && decision.delayMs >= timeLeft * 0.95) {
        return host.handbackFor({ reason: "provider", class: failure.class }, `the model provider failed (${failure.class}) and waiting it out would run past the time limit`);
      }
      this.#attempts.set(failure.class, attempt);
      host.sink.append("retry.scheduled", {
        what: "turn",
        class: failure.class,
        attempt: decision.attempt,
        max_attempts: decision.maxAttempts,
        delay_ms: decision.delayMs,
        ...definedFields({ retry_after_ms: failure.retryAfterMs }),
      });
      const interrupted = await host.wait(decision.delayMs);
      if (interrupted !== undefined) {
        const handled = host.betweenTurns(interrupted, next);
        if ("kind" in handled || handled.reason === "handback") return handled;
      }
      return { text: resendPrompt(host.task, `the model provider failed (${failure.class})`), reason: "resend" };
    }
    if (failure.class === "overloaded" && host.fallbackModel !== undefined && !this.#fallbackTried) {
      this.#fallbackTried = true;
      const from = live.model;
      const switched = await live.switchModel(host.fallbackModel);
      if (switched.failure === undefined) {
        host.sink.append("model.switched", { session: live.id, ...definedFields({ from }), to: host.fallbackModel, ...definedFields({ model: switched.model }), reason: "overloaded" });
        this.#attempts.clear();
        return { text: resendPrompt(host.task, `the model provider was overloaded; you now run on ${host.fallbackModel}`), reason: "resend" };
      }
      host.sink.append("log", { level: "warn", code: "fallback_failed", message: `could not switch to the fallback model ${host.fallbackModel}: ${switched.failure}` });
    }
    return host.handbackFor({ reason: "provider", class: failure.class }, `the model provider keeps failing (${failure.class}; ${decision.why})`);
  }
}
