import type { Envelope, RunState } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import type { SessionEnd } from "../acp/agent-session.ts";
import type { FinishedToolCall } from "../acp/event-mapper.ts";
import type { ActiveTurn, LiveSession, TurnEnd, TurnReason } from "../acp/live-session.ts";
import { formatDuration } from "../config/duration.ts";
import { classifyTurnFailure, providerFailureInWords, type ProviderClassification, type ProviderErrorClass, type ProviderRules } from "../provider/classify.ts";
import { LimitWatch, useData } from "./limit-watch.ts";
import type { LimitName, LimitUse, RunLimits } from "./limits.ts";
import { handbackPrompt, limitHandbackReason, limitNotice, reminderPrompt, repeatNotice, resendPrompt } from "./prompts.ts";
import { RepeatWatch } from "./repeat-watch.ts";
import type { TokenReports } from "./token-budget.ts";
import { decideRetry, type RetrySchedule } from "./retry-policy.ts";

/** What the conductor appends to and reads from: the run's sink. */
export type ConductSink = {
  append(type: string, data: Record<string, unknown>): void;
  readonly state: RunState;
  onAppend(listener: (envelope: Envelope) => void): () => void;
};

/** The agent entry's facts the conductor acts on. */
export type ConductAgent = ProviderRules & {
  /** Takes a prompt mid-turn: told of limit warnings and repeats. */
  notices: boolean;
  stallTimeoutMs?: number;
  /** When its token counts arrive: each turn's end (the default) or each model call. */
  tokenReports?: TokenReports;
};

export type ConductOptions = {
  task: string;
  sink: ConductSink;
  limits: RunLimits;
  retry: RetrySchedule;
  agent: ConductAgent;
  /** Switched to once when an overload outlasts its waits. */
  fallbackModel?: string;
  /** Whether the run has left its required output; absent: no output is required. */
  hasOutput?: () => Promise<boolean>;
  cancelGraceMs: number;
  /** Aborted when the user cancels the run. */
  signal: AbortSignal;
  /** When the run started, in `performance.now()` ms: the timeout counts from there. */
  startedAt: number;
  random?: () => number;
};

type Interrupt =
  | { kind: "abort" }
  /** `logged`: its `limit.reached` is in the log already (it came mid-turn). */
  | { kind: "limit"; use: LimitUse; action: "handback" | "cancel"; logged: boolean }
  | { kind: "stall"; idleMs: number }
  | { kind: "repeat" };

type Handback = { reason: "limit"; limit: LimitName } | { reason: "repeat" } | { reason: "provider"; class: ProviderErrorClass };

type Next = { text: string; reason: TurnReason };

const RANK: Record<Interrupt["kind"], number> = { abort: 4, limit: 3, stall: 2, repeat: 1 };

/**
 * Drives one task through an agent session and keeps it from ending badly: limits (warnings,
 * hand-back at 95%, cancel at 100%), provider failures (classified, waited out and resent, or
 * handed back), stalled turns (resent once), loops of one tool call (noticed, then handed
 * back), and a turn that ends without the required output (reminded once). Every decision is
 * an event.
 */
export class Conductor {
  readonly #o: ConductOptions;
  readonly #repeats: RepeatWatch | undefined;
  readonly #limits: LimitWatch;
  #live: LiveSession | undefined;
  /** The turn running now and why it was sent. */
  #current: { turn: ActiveTurn; reason: TurnReason } | undefined;
  #interrupt: Interrupt | undefined;
  /** The number of the last turn whose answer came (`turn.completed`). */
  #lastEnded: number | undefined;
  #wake: (() => void) | undefined;
  #handback: Handback | undefined;
  /** The words of the last provider failure, for the run's error when it ends on one. */
  #lastProviderWords: string | undefined;
  /** Resends so far, by class; a switch to the fallback model starts them over. */
  readonly #attempts = new Map<ProviderErrorClass, number>();
  #fallbackTried = false;

  constructor(options: ConductOptions) {
    this.#o = options;
    this.#repeats = options.limits.maxRepeats === undefined ? undefined : new RepeatWatch(options.limits.maxRepeats);
    this.#limits = new LimitWatch({
      sink: options.sink,
      limits: options.limits,
      startedAt: options.startedAt,
      canNotify: () => this.#canNotify(),
      notify: (use) => this.#live?.notice(limitNotice(use)),
      reached: (use, action) => this.#limitReached(use, action),
      handingBack: () => this.#handback !== undefined,
      ...definedFields({ tokenReports: options.agent.tokenReports }),
    });
  }

  /** For the session's mapper: each finished tool call, for loop detection. */
  onToolFinished(call: FinishedToolCall): void {
    const signal = this.#repeats?.record(call);
    if (signal === undefined || this.#handback !== undefined) return;
    const live = this.#live;
    const notified = signal.action === "notice" && this.#canNotify();
    this.#o.sink.append("repeat.detected", { ...(live ? { session: live.id } : {}), tool: signal.tool, count: signal.count, action: signal.action, notified });
    if (notified) live?.notice(repeatNotice(signal.tool, signal.count));
    if (signal.action === "handback") this.#raise({ kind: "repeat" });
  }

  async conduct(live: LiveSession): Promise<SessionEnd> {
    this.#live = live;
    const unsubscribe = this.#o.sink.onAppend((event) => {
      if (event.type === "turn.completed" && typeof event.data["turn"] === "number") this.#lastEnded = event.data["turn"];
      this.#limits.onEvent(event);
    });
    const onAbort = () => this.#raise({ kind: "abort" });
    if (this.#o.signal.aborted) onAbort();
    else this.#o.signal.addEventListener("abort", onAbort, { once: true });
    this.#limits.start();
    try {
      return await this.#loop(live);
    } finally {
      unsubscribe();
      this.#o.signal.removeEventListener("abort", onAbort);
      this.#limits.stop();
    }
  }

  async #loop(live: LiveSession): Promise<SessionEnd> {
    const o = this.#o;
    let next: Next = { text: o.task, reason: "task" };
    let stalls = 0;
    let reminded = false;
    for (;;) {
      // What came between turns (a limit crossed by the last usage report, a cancel).
      const pending = this.#take();
      if (pending !== undefined) {
        const handled = this.#betweenTurns(pending, next);
        if ("kind" in handled) return handled;
        next = handled;
      }
      const turn = live.prompt(next.text, next.reason);
      const reason = next.reason;
      this.#current = { turn, reason };
      const stopStallWatch = reason === "task" || reason === "resend" ? this.#watchStall(live, turn) : () => {};
      let end: TurnEnd | undefined;
      let after: Next | SessionEnd | undefined;
      try {
        while (end === undefined && after === undefined) {
          const raced = await Promise.race([turn.done.then((value) => ({ value })), this.#interrupted().then(() => undefined)]);
          if (raced !== undefined) end = raced.value;
          else after = await this.#duringTurn(live, turn, reason, () => (stalls += 1));
        }
      } finally {
        stopStallWatch();
        this.#current = undefined;
      }
      if (after !== undefined) {
        if ("kind" in after) return after;
        next = after;
        continue;
      }
      if (end === undefined) continue;
      if (end.kind === "exited") return this.#exited(live, end);

      const failure = end.kind === "error" ? classifyTurnFailure({ error: end.error, lastWords: live.turnWords }, o.agent) : end.stopReason === "cancelled" ? undefined : providerFailureInWords(live.turnWords, o.agent);
      if (failure !== undefined) {
        const handled = await this.#afterProviderFailure(live, turn.number, reason, end, failure, next);
        if ("kind" in handled) return handled;
        next = handled;
        continue;
      }
      if (end.kind !== "completed") return { kind: "failed", error: { code: "agent_error", message: "the turn failed" } };
      if (reason === "handback") return this.#afterHandback(end.stopReason === "end_turn");
      if (end.stopReason !== "end_turn" || o.hasOutput === undefined) return { kind: "completed", stopReason: end.stopReason };
      if (await o.hasOutput()) return { kind: "completed", stopReason: end.stopReason };
      if (reminded) {
        return { kind: "failed", error: { code: "no_output", message: "the agent ended its turn twice without the output the run requires (a change in its workspace)" } };
      }
      reminded = true;
      next = { text: reminderPrompt(), reason: "reminder" };
    }
  }

  /**
   * A turn failed on the provider: record it, then wait and resend, switch to the fallback
   * model, or ask for a hand-back. Returns the next prompt, or how the session ends.
   */
  async #afterProviderFailure(live: LiveSession, turn: number, reason: TurnReason, end: TurnEnd, failure: ProviderClassification, next: Next): Promise<Next | SessionEnd> {
    const o = this.#o;
    o.sink.append("provider.error", {
      session: live.id,
      turn,
      class: failure.class,
      ...(failure.status === undefined ? {} : { status: failure.status }),
      ...(failure.retryAfterMs === undefined ? {} : { retry_after_ms: failure.retryAfterMs }),
      source: failure.source,
      message: failure.message,
    });
    this.#lastProviderWords = failure.message;
    if (reason === "handback") return this.#afterHandback(false);
    if (failure.class === "other") {
      const message = end.kind === "error" ? `${end.error.message} (JSON-RPC ${end.error.code})` : failure.message;
      return { kind: "failed", error: { code: "agent_error", message } };
    }
    const attempt = (this.#attempts.get(failure.class) ?? 0) + 1;
    const decision = decideRetry(o.retry, failure.class, attempt, failure.retryAfterMs, o.random);
    if (decision.resend) {
      const timeLeft = this.#limits.timeLeft();
      if (timeLeft !== undefined && decision.delayMs >= timeLeft * 0.95) {
        return this.#handbackFor({ reason: "provider", class: failure.class }, `the model provider failed (${failure.class}) and waiting it out would run past the time limit`);
      }
      this.#attempts.set(failure.class, attempt);
      o.sink.append("retry.scheduled", {
        what: "turn",
        class: failure.class,
        attempt: decision.attempt,
        max_attempts: decision.maxAttempts,
        delay_ms: decision.delayMs,
        ...(failure.retryAfterMs === undefined ? {} : { retry_after_ms: failure.retryAfterMs }),
      });
      const interrupted = await this.#wait(decision.delayMs);
      if (interrupted !== undefined) {
        const handled = this.#betweenTurns(interrupted, next);
        if ("kind" in handled || handled.reason === "handback") return handled;
      }
      return { text: resendPrompt(o.task, `the model provider failed (${failure.class})`), reason: "resend" };
    }
    if (failure.class === "overloaded" && o.fallbackModel !== undefined && !this.#fallbackTried) {
      this.#fallbackTried = true;
      const from = live.model;
      const switched = await live.switchModel(o.fallbackModel);
      if (switched.failure === undefined) {
        o.sink.append("model.switched", { session: live.id, ...(from === undefined ? {} : { from }), to: o.fallbackModel, ...(switched.model === undefined ? {} : { model: switched.model }), reason: "overloaded" });
        this.#attempts.clear();
        return { text: resendPrompt(o.task, `the model provider was overloaded; you now run on ${o.fallbackModel}`), reason: "resend" };
      }
      o.sink.append("log", { level: "warn", code: "fallback_failed", message: `could not switch to the fallback model ${o.fallbackModel}: ${switched.failure}` });
    }
    return this.#handbackFor({ reason: "provider", class: failure.class }, `the model provider keeps failing (${failure.class}; ${decision.why})`);
  }

  /** An interrupt while a turn runs: returns the next prompt, the session's end, or undefined to keep waiting. */
  async #duringTurn(live: LiveSession, turn: ActiveTurn, reason: TurnReason, countStall: () => number): Promise<Next | SessionEnd | undefined> {
    const o = this.#o;
    const interrupt = this.#take();
    if (interrupt === undefined) return undefined;
    switch (interrupt.kind) {
      case "abort":
        await live.cancelAndSettle(turn, o.cancelGraceMs);
        return { kind: "cancelled" };
      case "limit": {
        if (interrupt.action === "handback" && this.#handback !== undefined) return undefined;
        // The turn's own last report crossed the limit: there is no turn left to cancel.
        if (this.#lastEnded === turn.number) return this.#limitWithoutTurn(interrupt);
        if (!interrupt.logged) o.sink.append("limit.reached", { ...useData(interrupt.use), action: interrupt.action });
        const ended = await live.cancelAndSettle(turn, o.cancelGraceMs);
        if (interrupt.action === "cancel" || ended === undefined) return this.#stopped({ reason: "limit", limit: interrupt.use.limit }, false);
        if (ended.kind === "exited") return this.#exited(live, ended);
        return this.#handbackFor({ reason: "limit", limit: interrupt.use.limit }, limitHandbackReason(interrupt.use));
      }
      case "repeat": {
        if (this.#handback !== undefined) return undefined;
        const ended = await live.cancelAndSettle(turn, o.cancelGraceMs);
        if (ended === undefined) return this.#stopped({ reason: "repeat" }, false);
        if (ended.kind === "exited") return this.#exited(live, ended);
        return this.#handbackFor({ reason: "repeat" }, "you made the same tool call with the same result again and again");
      }
      case "stall": {
        if (reason !== "task" && reason !== "resend") return undefined;
        const stalls = countStall();
        const seconds = formatDuration(interrupt.idleMs);
        o.sink.append("stall.detected", { session: live.id, turn: turn.number, idle_ms: interrupt.idleMs, action: stalls === 1 ? "resend" : "fail" });
        const ended = await live.cancelAndSettle(turn, o.cancelGraceMs);
        if (stalls > 1) return { kind: "failed", error: { code: "stalled", message: `the agent stalled twice: nothing came from it for ${seconds} while no tool call ran` } };
        if (ended === undefined) return { kind: "failed", error: { code: "stalled", message: `the agent stalled (nothing for ${seconds}) and did not answer the cancel` } };
        if (ended.kind === "exited") return this.#exited(live, ended);
        return { text: resendPrompt(o.task, `it stalled: nothing came from you for ${seconds}`), reason: "resend" };
      }
    }
  }

  /** An interrupt between turns (or during a wait): stop, hand back, or carry on with `next`. */
  #betweenTurns(interrupt: Interrupt, next: Next): Next | SessionEnd {
    switch (interrupt.kind) {
      case "abort":
        return { kind: "cancelled" };
      case "limit":
        if (interrupt.action === "handback" && this.#handback !== undefined) return next;
        return this.#limitWithoutTurn(interrupt);
      case "repeat":
        if (this.#handback !== undefined) return next;
        return this.#handbackFor({ reason: "repeat" }, "you made the same tool call with the same result again and again");
      case "stall":
        return next;
    }
  }

  /**
   * The limit watch found a limit near or hit. Mid-turn, `limit.reached` is logged at once,
   * right after the warnings of the same report: what the agent sends before the conductor
   * acts (the next tool call of a turn about to be cancelled) comes after it. Otherwise it is
   * logged when acted on.
   */
  #limitReached(use: LimitUse, action: "handback" | "cancel"): void {
    const current = this.#current;
    const midTurn = current !== undefined && this.#lastEnded !== current.turn.number;
    if (midTurn) this.#o.sink.append("limit.reached", { ...useData(use), action });
    this.#raise({ kind: "limit", use, action, logged: midTurn });
  }

  /** A limit crossed while no turn runs: the run stops at the limit, or the agent is asked to hand back. */
  #limitWithoutTurn(interrupt: Extract<Interrupt, { kind: "limit" }>): Next | SessionEnd {
    const { use, action } = interrupt;
    if (!interrupt.logged) this.#o.sink.append("limit.reached", { ...useData(use), action: action === "cancel" ? "stop" : "handback" });
    if (action === "cancel") return this.#stopped({ reason: "limit", limit: use.limit }, false);
    return this.#handbackFor({ reason: "limit", limit: use.limit }, limitHandbackReason(use));
  }

  #handbackFor(handback: Handback, why: string): Next {
    this.#handback = handback;
    this.#o.sink.append("handback.requested", handback);
    return { text: handbackPrompt(why), reason: "handback" };
  }

  /** The hand-back turn ended: well (`handedBack`), or not (a provider failure, another stop reason). */
  #afterHandback(handedBack: boolean): SessionEnd {
    const handback = this.#handback ?? { reason: "repeat" as const };
    if (handback.reason === "provider" && !handedBack) return { kind: "failed", error: this.#providerStopError(handback.class), providerError: handback.class };
    return this.#stopped(handback, handedBack);
  }

  /** The run's error when the provider stopped it: its class and its last words. */
  #providerStopError(providerClass: ProviderErrorClass): { code: string; message: string } {
    const words = this.#lastProviderWords === undefined ? "" : `: ${this.#lastProviderWords}`;
    return { code: "provider_error", message: `the model provider stopped the run (${providerClass})${words}` };
  }

  #stopped(handback: Handback, handedBack: boolean): SessionEnd {
    if (handback.reason === "limit") return { kind: "stopped", by: handback.limit, handedBack };
    if (handback.reason === "repeat") return { kind: "stopped", by: "repeats", handedBack };
    return { kind: "stopped", by: "provider", providerError: handback.class, handedBack, error: this.#providerStopError(handback.class) };
  }

  /** The agent's process ended mid-turn: its exit, its last words, and the provider's class when they name one. */
  #exited(live: LiveSession, end: Extract<TurnEnd, { kind: "exited" }>): SessionEnd {
    live.closeOpen("failed", end.error);
    const failure = classifyTurnFailure({ stderr: end.stderr.slice(-20), lastWords: live.turnWords }, this.#o.agent);
    if (failure.class === "other") return { kind: "failed", error: end.error };
    return { kind: "failed", error: end.error, providerError: failure.class };
  }

  #watchStall(live: LiveSession, turn: ActiveTurn): () => void {
    const stallMs = this.#o.agent.stallTimeoutMs;
    if (stallMs === undefined) return () => {};
    const sentAt = performance.now();
    const timer = setInterval(() => {
      if (live.openToolCalls > 0 || this.#current?.turn !== turn) return;
      const idle = performance.now() - Math.max(live.lastActivity, sentAt);
      if (idle < stallMs) return;
      clearInterval(timer);
      this.#raise({ kind: "stall", idleMs: Math.round(idle) });
    }, Math.max(20, Math.min(1_000, stallMs / 4)));
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Waits `ms`; a cancel or a limit cuts the wait short and is returned. */
  async #wait(ms: number): Promise<Interrupt | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    for (;;) {
      const done = await Promise.race([elapsed.then(() => true), this.#interrupted().then(() => false)]);
      if (done) return undefined;
      const interrupt = this.#take();
      if (interrupt?.kind === "abort" || interrupt?.kind === "limit") {
        clearTimeout(timer);
        return interrupt;
      }
    }
  }

  #canNotify(): boolean {
    const current = this.#current;
    return this.#o.agent.notices && current !== undefined && (current.reason === "task" || current.reason === "resend");
  }

  #raise(interrupt: Interrupt): void {
    const pending = this.#interrupt;
    // A limit hit outranks a hand-back asked for by another limit and not yet acted on.
    const harder = interrupt.kind === "limit" && pending?.kind === "limit" && interrupt.action === "cancel" && pending.action === "handback";
    if (pending === undefined || RANK[interrupt.kind] > RANK[pending.kind] || harder) this.#interrupt = interrupt;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #take(): Interrupt | undefined {
    const interrupt = this.#interrupt;
    this.#interrupt = undefined;
    return interrupt;
  }

  #interrupted(): Promise<void> {
    if (this.#interrupt !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.#wake;
      this.#wake = () => {
        previous?.();
        resolve();
      };
    });
  }
}
