import type { Envelope, RunState } from "@baton/protocol";
import { atLimit, HANDBACK_FRACTION, limitsData, limitUses, mostUsed, nearLimit, WARNING_THRESHOLDS, type LimitUse, type RunLimits } from "./limits.ts";

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
    if (type === "tool.completed" || type === "turn.completed") this.#budgetUpdated();
    if (type === "tool.completed" || type === "turn.completed" || type === "usage.updated") this.check();
  }

  check(): void {
    const uses = limitUses(this.#o.limits, this.#o.sink.state, this.elapsed());
    const top = mostUsed(uses);
    if (top === undefined) return;
    // Each mark passed is a warning; the agent is told once, of the last one, when several
    // are passed at once (a cost report can jump from 50% to 97%).
    const passed = WARNING_THRESHOLDS.filter((threshold) => top.fraction >= threshold && !this.#warned.has(threshold));
    for (const [index, threshold] of passed.entries()) {
      this.#warned.add(threshold);
      const notified = index === passed.length - 1 && this.#o.canNotify();
      this.#o.sink.append("limit.warning", { ...useData(top), threshold, notified });
      if (notified) this.#o.notify(top);
    }
    for (const use of uses) {
      if (atLimit(use)) {
        if (!this.#hit) {
          this.#hit = true;
          this.#o.reached(use, "cancel");
        }
      } else if (nearLimit(use) && !this.#o.handingBack()) {
        this.#o.reached(use, "handback");
      }
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
    const top = mostUsed(limitUses(limits, state, this.elapsed()));
    sink.append("budget.updated", {
      tokens: state.usage.input_tokens + state.usage.output_tokens,
      ...(state.cost_usd === undefined ? {} : { cost_usd: state.cost_usd }),
      tool_calls: state.counts.tool_calls,
      elapsed_ms: Math.round(this.elapsed()),
      limits: limitsData(limits),
      ...(top === undefined ? {} : { limit: top.limit, fraction: round(top.fraction) }),
    });
  }
}

/** A limit's use as `limit.warning` and `limit.reached` carry it. */
export function useData(use: LimitUse): Record<string, unknown> {
  return { limit: use.limit, used: round(use.used), max: use.max, fraction: round(use.fraction) };
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
