import type { Envelope, RunState } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import { atLimit, HANDBACK_FRACTION, limitsData, limitUses, mostUsed, nearLimit, reportedTokens, WARNING_THRESHOLDS, type LimitName, type LimitUse, type RunLimits } from "./limits.ts";
import type { TokenReports } from "./token-budget.ts";

/** What the watch appends to and reads from: the run's sink. */
export type LimitSink = {
  append(type: string, data: Record<string, unknown>): void;
  readonly state: RunState;
};

export type LimitWatchOptions = {
  sink: LimitSink;
  limits: RunLimits;
  /** When the run started, in `performance.now()` ms: the timeout counts from there. */
  startedAt: number;
  /** Whether the agent can be told of a warning now. */
  canNotify: () => boolean;
  /** Tells the agent of a warning (after the `limit.warning` is logged). */
  notify: (use: LimitUse) => void;
  /** A limit is near (`handback`) or reached (`cancel`). */
  reached: (use: LimitUse, action: "handback" | "cancel") => void;
  /** Whether a hand-back is already on its way: a near limit then asks for nothing more. */
  handingBack: () => boolean;
  /** When the agent's token counts arrive (its entry's `token_reports`); `turn` when absent. */
  tokenReports?: TokenReports;
};

/**
 * Measures a run against its limits on the run's own folded events: `budget.updated` after
 * each turn and tool call, `limit.warning` at each mark of the most used limit, and a call to
 * `reached` when a limit is near or hit (each limit hit is reported once). The timeout is
 * watched by timers at its marks, so that time passes without any event.
 */
export class LimitWatch {
  readonly #o: LimitWatchOptions;
  readonly #warned = new Set<number>();
  readonly #timers: NodeJS.Timeout[] = [];
  #hit = false;
  /** Whether a limit has asked for a hand-back or a stop. */
  #acted = false;
  /** With `token_reports = "call"`: the run's reported tokens when the running turn began, and its calls' since. */
  #turnBase = 0;
  #turnCallTokens = 0;
  /** What the inference proxy counted: its `model.request.*` events. */
  readonly #proxy = { requests: 0, tokens: 0, costUsd: 0, refused: new Set<LimitName>() };

  constructor(options: LimitWatchOptions) {
    this.#o = options;
  }

  /** Starts the timeout's timers. */
  start(): void {
    const timeout = this.#o.limits.timeoutMs;
    if (timeout === undefined) return;
    for (const fraction of [...WARNING_THRESHOLDS, HANDBACK_FRACTION, 1]) {
      const at = timeout * fraction - this.elapsed();
      const timer = setTimeout(() => this.check(), Math.max(0, Math.ceil(at)) + 1);
      timer.unref();
      this.#timers.push(timer);
    }
  }

  stop(): void {
    for (const timer of this.#timers) clearTimeout(timer);
  }

  /** For each appended event: the budget after turns and tool calls, the limits after any use. */
  onEvent(event: Envelope): void {
    const type = event.type;
    this.#countCallTokens(event);
    const proxied = this.#countProxied(event);
    if (type === "tool.completed" || type === "turn.completed") this.#budgetUpdated();
    // A turn's own report (`basis: "delta"`) is followed at once by its `turn.completed`: the
    // limits are checked then, when the turn is known to be over.
    const midTurnReport = type === "usage.updated" && (event.data as Record<string, unknown>)["basis"] !== "delta";
    if (type === "tool.completed" || type === "turn.completed" || midTurnReport || proxied) this.check();
  }

  /**
   * The proxy's figures, from its events: requests, and the tokens (input + output) and cost
   * they spent. A request it refused for a limit is that limit reached, whatever the figures
   * say (requests in flight may not have settled yet): the session is cancelled at once.
   */
  #countProxied(event: Envelope): boolean {
    const data = event.data as Record<string, unknown>;
    const num = (key: string) => (typeof data[key] === "number" ? (data[key] as number) : 0);
    if (event.type === "model.request.completed") {
      this.#proxy.requests += 1;
      this.#proxy.tokens += num("input_tokens") + num("output_tokens");
      this.#proxy.costUsd += num("cost_usd");
      return true;
    }
    if (event.type === "model.request.refused") {
      this.#proxy.requests += 1;
      const limit = data["limit"];
      if (limit === "requests" || limit === "tokens" || limit === "cost") this.#proxy.refused.add(limit);
      return true;
    }
    return false;
  }

  /** The run's uses of its limits, the proxy's figures and refusals included. */
  #uses(): LimitUse[] {
    const uses = limitUses(this.#o.limits, this.#o.sink.state, this.elapsed(), { tokens: this.tokens(), costUsd: this.#proxy.costUsd, requests: this.#proxy.requests });
    return uses.map((use) => {
      if (!this.#proxy.refused.has(use.limit)) return use;
      const used = Math.max(use.used, use.limit === "requests" ? use.max + 1 : use.max);
      return { ...use, used, fraction: used / use.max };
    });
  }

  check(): void {
    const uses = this.#uses();
    const top = mostUsed(uses);
    if (top === undefined) return;
    const actions = this.#actionsFor(uses);
    // Each mark passed is a warning, logged before the hand-back or stop the same report asks
    // for. The agent is told of the last one only when nothing follows at once (a cost report
    // can jump from 50% to 97%: the hand-back prompt then says more than a notice would). A mark
    // passed after a limit has asked for its hand-back or stop is no warning at all.
    const passed = this.#acted ? [] : WARNING_THRESHOLDS.filter((threshold) => top.fraction >= threshold && !this.#warned.has(threshold));
    for (const [index, threshold] of passed.entries()) {
      this.#warned.add(threshold);
      const notified = index === passed.length - 1 && actions.length === 0 && this.#o.canNotify();
      this.#o.sink.append("limit.warning", { ...useData(top), threshold, notified });
      if (notified) this.#o.notify(top);
    }
    if (actions.length > 0) this.#acted = true;
    for (const { use, action } of actions) this.#o.reached(use, action);
  }

  /**
   * The limit hit (reported once), or else the first near enough for a hand-back: asked for
   * once, unless a limit was hit since (a hit stops the run whatever the hand-back).
   */
  #actionsFor(uses: readonly LimitUse[]): Array<{ use: LimitUse; action: "handback" | "cancel" }> {
    const hit = this.#hit ? undefined : uses.find(atLimit);
    if (hit !== undefined) {
      this.#hit = true;
      return [{ use: hit, action: "cancel" }];
    }
    const near = this.#acted || this.#o.handingBack() ? undefined : uses.find((use) => !atLimit(use) && nearLimit(use));
    return near === undefined ? [] : [{ use: near, action: "handback" }];
  }

  /**
   * The run's tokens so far. Ended turns report theirs; an agent that reports each model call
   * (`token_reports = "call"`: Codex) has spent at least the calls of the running turn on top
   * of what the run had when that turn began. The larger of the two never counts a turn
   * twice: once the turn's own report arrives it holds those calls.
   */
  tokens(): number {
    const reported = reportedTokens(this.#o.sink.state);
    return Math.max(reported, this.#turnBase + this.#turnCallTokens, this.#proxy.tokens);
  }

  #countCallTokens(event: Envelope): void {
    if (this.#o.tokenReports !== "call") return;
    const data = event.data as Record<string, unknown>;
    if (event.type === "turn.started" && data["reason"] !== "notice") {
      this.#turnBase = reportedTokens(this.#o.sink.state);
      this.#turnCallTokens = 0;
    } else if (event.type === "usage.updated" && data["basis"] === "total" && typeof data["context_used"] === "number") {
      // A call's `used` is its context after it: the input it was sent and the output it made.
      this.#turnCallTokens += data["context_used"];
    }
  }

  /** How long the run has taken. */
  elapsed(): number {
    return performance.now() - this.#o.startedAt;
  }

  /** Time left before the timeout, if the run has one. */
  timeLeft(): number | undefined {
    const timeout = this.#o.limits.timeoutMs;
    return timeout === undefined ? undefined : Math.max(0, timeout - this.elapsed());
  }

  #budgetUpdated(): void {
    const { sink, limits } = this.#o;
    const state = sink.state;
    const top = mostUsed(this.#uses());
    const cost = Math.max(state.cost_usd ?? 0, this.#proxy.costUsd);
    const requests = this.#proxy.requests;
    sink.append(
      "budget.updated",
      definedFields({
        tokens: this.tokens(),
        cost_usd: state.cost_usd === undefined && requests === 0 ? undefined : cost,
        requests: requests === 0 ? undefined : requests,
        tool_calls: state.counts.tool_calls,
        elapsed_ms: Math.round(this.elapsed()),
        limits: limitsData(limits),
        limit: top?.limit,
        fraction: top === undefined ? undefined : round(top.fraction),
      }),
    );
  }
}

/** A limit's use as `limit.warning` and `limit.reached` carry it. */
export function useData(use: LimitUse): Record<string, unknown> {
  return { limit: use.limit, used: round(use.used), max: use.max, fraction: round(use.fraction) };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
