/** The signals that end a command: Ctrl-C, `kill`, the terminal going away. */
export const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
export type EndingSignal = (typeof ENDING_SIGNALS)[number];

/** Where a signal came from: to this process itself, or passed on by the launcher (bin/baton.js). */
export type SignalSource = "direct" | "launcher";

/** What the command's AbortSignal carries as its reason: recorded in `run.cancelled`. */
export type InterruptReason = { by: "user"; reason: string };

/**
 * Turns ending signals into the command's AbortSignal: the first one aborts it, so that the
 * command ends cleanly (a run is cancelled and its work committed, a follower returns); the
 * second one means "now" (`exitNow`), leaving a run for the next command to recover.
 *
 * One Ctrl-C can arrive twice: at a terminal it reaches every process of the foreground
 * group, the launcher included, which passes on what it gets. So signals are counted per
 * source and the larger count is the number of interrupts: Ctrl-C once is one interrupt
 * however many ways it arrives, a signal sent to the launcher alone still counts.
 */
export class Interrupts {
  readonly #controller = new AbortController();
  readonly #counts: Record<SignalSource, number> = { direct: 0, launcher: 0 };
  readonly #exitNow: () => void;

  constructor(exitNow: () => void) {
    this.#exitNow = exitNow;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  receive(signal: EndingSignal, source: SignalSource): void {
    const before = Math.max(this.#counts.direct, this.#counts.launcher);
    this.#counts[source] += 1;
    const interrupts = Math.max(this.#counts.direct, this.#counts.launcher);
    if (interrupts === before) return;
    if (interrupts > 1) {
      this.#exitNow();
      return;
    }
    const reason: InterruptReason = { by: "user", reason: signal === "SIGINT" ? "interrupted (Ctrl-C)" : `received ${signal}` };
    this.#controller.abort(reason);
  }
}
