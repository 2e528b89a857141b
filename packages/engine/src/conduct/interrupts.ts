import type { LimitUse } from "./limits.ts";

/** What cuts a turn (or a wait) short. */
export type Interrupt =
  | { kind: "abort" }
  /** `logged`: its `limit.reached` is in the log already (it came mid-turn). */
  | { kind: "limit"; use: LimitUse; action: "handback" | "cancel"; logged: boolean }
  | { kind: "stall"; idleMs: number }
  | { kind: "repeat" };

const RANK: Record<Interrupt["kind"], number> = { abort: 4, limit: 3, stall: 2, repeat: 1 };

/**
 * The conductor's one pending interrupt: the strongest raised since it was last taken (a
 * cancel outranks a limit, a limit a stall, a stall a loop), and a way to wait for one.
 */
export class Interrupts {
  #pending: Interrupt | undefined;
  #wake: (() => void) | undefined;

  raise(interrupt: Interrupt): void {
    const pending = this.#pending;
    // A limit hit outranks a hand-back asked for by another limit and not yet acted on.
    const harder = interrupt.kind === "limit" && pending?.kind === "limit" && interrupt.action === "cancel" && pending.action === "handback";
    if (pending === undefined || RANK[interrupt.kind] > RANK[pending.kind] || harder) this.#pending = interrupt;
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  take(): Interrupt | undefined {
    const interrupt = this.#pending;
    this.#pending = undefined;
    return interrupt;
  }

  /** Settles when an interrupt is raised (at once if one is pending). */
  interrupted(): Promise<void> {
    if (this.#pending !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.#wake;
      this.#wake = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** Waits `ms`; a cancel or a limit cuts the wait short and is returned. */
  async wait(ms: number): Promise<Interrupt | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
    for (;;) {
      const done = await Promise.race([elapsed.then(() => true), this.interrupted().then(() => false)]);
      if (done) return undefined;
      const interrupt = this.take();
      if (interrupt?.kind === "abort" || interrupt?.kind === "limit") {
        clearTimeout(timer);
        return interrupt;
      }
    }
  }
}
