import type { Envelope, RunState } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import type { SessionEnd } from "../acp/agent-session.ts";
import type { FinishedToolCall } from "../acp/event-mapper.ts";
import { isWorkTurn, type ActiveTurn, type LiveSession, type TurnEnd, type TurnReason } from "../acp/live-session.ts";
import { formatDuration } from "../config/duration.ts";
import type { InputQueue } from "../input/input-queue.ts";
import { classifyTurnFailure, providerFailureInWords, type ProviderRules } from "../provider/classify.ts";
import { InputDelivery } from "./input-delivery.ts";
import { Interrupts, type Interrupt } from "./interrupts.ts";
import { LimitWatch, useData } from "./limit-watch.ts";
import type { LimitUse, RunLimits } from "./limits.ts";
import { handbackPrompt, limitHandbackReason, limitNotice, reminderPrompt, repeatNotice, resendPrompt } from "./prompts.ts";
import { ProviderFailures } from "./provider-failure.ts";
import { RepeatWatch } from "./repeat-watch.ts";
import type { RetrySchedule } from "./retry-policy.ts";
import { afterHandbackEnd, exitedEnd, stoppedEnd, type Handback, type Next } from "./session-ends.ts";
import { UnreportedToolWatch } from "./unreported-tools.ts";
import type { TokenReports } from "./token-budget.ts";

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
  /** Why the first prompt is sent: the task (the default), or a validation fix (`fix`). */
  taskReason?: "task" | "fix";
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
  /** People's inputs to the run (`baton steer`): delivered mid-turn or at a turn's end. */
  inputs?: InputQueue;
};

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
  readonly #interrupts = new Interrupts();
  readonly #providerFailures: ProviderFailures;
  readonly #inputs: InputDelivery;
  #live: LiveSession | undefined;
  /** The turn running now and why it was sent. */
  #current: { turn: ActiveTurn; reason: TurnReason } | undefined;
  /** The number of the last turn whose answer came (`turn.completed`). */
  #lastEnded: number | undefined;
  #handback: Handback | undefined;

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
    this.#providerFailures = new ProviderFailures({
      sink: options.sink,
      task: options.task,
      retry: options.retry,
      fallbackModel: options.fallbackModel,
      random: options.random,
      timeLeft: () => this.#limits.timeLeft(),
      wait: (ms) => this.#interrupts.wait(ms),
      betweenTurns: (interrupt, next) => this.#betweenTurns(interrupt, next),
      handbackFor: (handback, why) => this.#handbackFor(handback, why),
      afterHandback: (handedBack) => this.#afterHandback(handedBack),
    });
    this.#inputs = new InputDelivery(options.inputs, () => this.#canNotify());
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
    const unreported = new UnreportedToolWatch();
    const unsubscribe = this.#o.sink.onAppend((event) => {
      if (event.type === "turn.completed" && typeof event.data["turn"] === "number") this.#lastEnded = event.data["turn"];
      this.#limits.onEvent(event);
      const warning = unreported.onEvent(event);
      if (warning !== undefined) this.#o.sink.append("log", warning);
    });
    const onAbort = () => this.#raise({ kind: "abort" });
    if (this.#o.signal.aborted) onAbort();
    else this.#o.signal.addEventListener("abort", onAbort, { once: true });
    this.#limits.start();
    this.#inputs.start(live);
    try {
      return await this.#loop(live);
    } finally {
      unsubscribe();
      this.#o.signal.removeEventListener("abort", onAbort);
      this.#limits.stop();
      this.#inputs.stop();
    }
  }

  async #loop(live: LiveSession): Promise<SessionEnd> {
    const o = this.#o;
    const first = this.#inputs.firstPrompt(o.task, o.taskReason ?? "task");
    let next: Next = first.next;
    /** Records the inputs the next prompt carries, once it is sent. */
    let carries: ((turn: number) => void) | undefined = first.sent;
    let stalls = 0;
    let reminded = false;
    for (;;) {
      // What came between turns (a limit crossed by the last usage report, a cancel).
      const pending = this.#interrupts.take();
      if (pending !== undefined) {
        const handled = this.#betweenTurns(pending, next);
        if ("kind" in handled) return handled;
        if (handled !== next) carries = undefined;
        next = handled;
      }
      const turn = live.prompt(next.text, next.reason);
      carries?.(turn.number);
      carries = undefined;
      const reason = next.reason;
      this.#current = { turn, reason };
      const stopStallWatch = isWorkTurn(reason) ? this.#watchStall(live, turn) : () => {};
      let end: TurnEnd | undefined;
      let after: Next | SessionEnd | undefined;
      try {
        while (end === undefined && after === undefined) {
          const raced = await Promise.race([turn.done.then((value) => ({ value })), this.#interrupts.interrupted().then(() => undefined)]);
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
      if (end.kind === "exited") return exitedEnd(live, end, o.agent);

      const failure = end.kind === "error" ? classifyTurnFailure({ error: end.error, lastWords: live.turnWords }, o.agent) : end.stopReason === "cancelled" ? undefined : providerFailureInWords(live.turnWords, o.agent);
      if (failure !== undefined) {
        const handled = await this.#providerFailures.after(live, turn.number, reason, end, failure, next);
        if ("kind" in handled) return handled;
        next = handled;
        continue;
      }
      if (end.kind !== "completed") return { kind: "failed", error: { code: "agent_error", message: "the turn failed" } };
      if (reason === "handback") return this.#afterHandback(end.stopReason === "end_turn");
      // People's inputs that waited for this turn's end: a turn of their own, before anything else.
      const steer = end.stopReason === "end_turn" ? this.#inputs.atBoundary() : undefined;
      if (steer !== undefined) {
        next = steer.next;
        carries = steer.sent;
        continue;
      }
      if (end.stopReason !== "end_turn" || o.hasOutput === undefined) return { kind: "completed", stopReason: end.stopReason };
      if (await o.hasOutput()) return { kind: "completed", stopReason: end.stopReason };
      if (reminded) {
        return { kind: "failed", error: { code: "no_output", message: "the agent ended its turn twice without the output the run requires (a change in its workspace)" } };
      }
      reminded = true;
      next = { text: reminderPrompt(), reason: "reminder" };
    }
  }

  /** An interrupt while a turn runs: returns the next prompt, the session's end, or undefined to keep waiting. */
  async #duringTurn(live: LiveSession, turn: ActiveTurn, reason: TurnReason, countStall: () => number): Promise<Next | SessionEnd | undefined> {
    const o = this.#o;
    const interrupt = this.#interrupts.take();
    if (interrupt === undefined || this.#letsPass(interrupt, reason)) return undefined;
    switch (interrupt.kind) {
      case "abort":
        await live.cancelAndSettle(turn, o.cancelGraceMs);
        return { kind: "cancelled" };
      case "limit": {
        // The turn's own last report crossed the limit: there is no turn left to cancel.
        if (this.#lastEnded === turn.number) return this.#limitWithoutTurn(interrupt);
        if (!interrupt.logged) o.sink.append("limit.reached", { ...useData(interrupt.use), action: interrupt.action });
        const ended = await live.cancelAndSettle(turn, o.cancelGraceMs);
        if (interrupt.action === "cancel" || ended === undefined) return this.#stopped({ reason: "limit", limit: interrupt.use.limit }, false);
        if (ended.kind === "exited") return exitedEnd(live, ended, o.agent);
        return this.#handbackFor({ reason: "limit", limit: interrupt.use.limit }, limitHandbackReason(interrupt.use));
      }
      case "repeat": {
        const ended = await live.cancelAndSettle(turn, o.cancelGraceMs);
        if (ended === undefined) return this.#stopped({ reason: "repeat" }, false);
        if (ended.kind === "exited") return exitedEnd(live, ended, o.agent);
        return this.#handbackFor({ reason: "repeat" }, "you made the same tool call with the same result again and again");
      }
      case "stall": {
        const stalls = countStall();
        const seconds = formatDuration(interrupt.idleMs);
        o.sink.append("stall.detected", { session: live.id, turn: turn.number, idle_ms: interrupt.idleMs, action: stalls === 1 ? "resend" : "fail" });
        const ended = await live.cancelAndSettle(turn, o.cancelGraceMs);
        if (stalls > 1) return { kind: "failed", error: { code: "stalled", message: `the agent stalled twice: nothing came from it for ${seconds} while no tool call ran` } };
        if (ended === undefined) return { kind: "failed", error: { code: "stalled", message: `the agent stalled (nothing for ${seconds}) and did not answer the cancel` } };
        if (ended.kind === "exited") return exitedEnd(live, ended, o.agent);
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
    return afterHandbackEnd(this.#handback, handedBack, this.#providerFailures.lastWords);
  }

  #stopped(handback: Handback, handedBack: boolean): SessionEnd {
    return stoppedEnd(handback, handedBack, this.#providerFailures.lastWords);
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

  #canNotify(): boolean {
    const current = this.#current;
    return this.#o.agent.notices && current !== undefined && isWorkTurn(current.reason);
  }

  #raise(interrupt: Interrupt): void {
    this.#interrupts.raise(interrupt);
    // The turn is ended from this moment: what the agent asks for before the cancel goes out
    // (the tool call it was already making) belongs to a cancelled turn and is not granted.
    if (this.#endsTheTurn(interrupt)) this.#live?.markCancelling();
  }

  /** Whether acting on `interrupt` cancels the running turn, as {@link #duringTurn} does. */
  #endsTheTurn(interrupt: Interrupt): boolean {
    const current = this.#current;
    return current !== undefined && this.#lastEnded !== current.turn.number && !this.#letsPass(interrupt, current.reason);
  }

  /**
   * Whether a turn of `reason` goes on past `interrupt`: a second hand-back asked for while one
   * already is, or a stall outside a turn of work.
   */
  #letsPass(interrupt: Interrupt, reason: TurnReason): boolean {
    switch (interrupt.kind) {
      case "abort":
        return false;
      case "limit":
        return interrupt.action === "handback" && this.#handback !== undefined;
      case "repeat":
        return this.#handback !== undefined;
      case "stall":
        return !isWorkTurn(reason);
    }
  }
}
