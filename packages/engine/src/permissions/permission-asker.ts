import type { PersonAnswer } from "./person-answer.ts";
import type { PermissionQuestion } from "./policy.ts";

/** How a question put to a person ended: answered, unanswered for its timeout, or its turn cancelled. */
export type AskVerdict = { kind: "answered"; answer: PersonAnswer } | { kind: "timeout"; timeoutMs: number } | { kind: "cancelled" };

/**
 * The permission questions of a run that wait for a person: each waits for the answer left for
 * its call (first answer wins: the file of the first is the one read), at most `timeoutMs`
 * (undefined: as long as it takes). An answer that comes before its question is asked (the
 * request is logged before the question is put) is kept for it. An allow `alwaysForRun`
 * answers later questions of the same kind and target at once, for the rest of the run.
 */
export class PermissionAsker {
  readonly timeoutMs: number | undefined;
  readonly #waiting = new Map<string, (answer: PersonAnswer) => void>();
  readonly #early = new Map<string, PersonAnswer>();
  readonly #always = new Map<string, PersonAnswer>();
  /** Calls whose question ended and none of that id was asked since: an answer for one is late. */
  readonly #settled = new Set<string>();
  readonly #onSettled: ((call: string) => void) | undefined;

  constructor(options: { timeoutMs?: number | undefined; onSettled?: (call: string) => void }) {
    this.timeoutMs = options.timeoutMs;
    this.#onSettled = options.onSettled;
  }

  /**
   * A person's answer arrived: it ends the question waiting for its call (`taken`), or waits
   * for it (`kept`); one for a question that has ended already changes nothing (`late`: a
   * second person's, whose answer lost).
   */
  receive(answer: PersonAnswer): "taken" | "kept" | "late" {
    const waiting = this.#waiting.get(answer.call);
    if (waiting !== undefined) {
      waiting(answer);
      return "taken";
    }
    if (this.#settled.has(answer.call)) return "late";
    this.#early.set(answer.call, answer);
    return "kept";
  }

  /** The standing answer for a question like this one: an earlier allow for the rest of the run. */
  remembered(question: PermissionQuestion): PersonAnswer | undefined {
    return this.#always.get(keyOf(question));
  }

  /** Puts a question to a person and waits for the answer, the timeout, or `cancelled`. */
  async ask(call: string, question: PermissionQuestion, cancelled: Promise<void>): Promise<AskVerdict> {
    this.#settled.delete(call);
    const early = this.#early.get(call);
    this.#early.delete(call);
    let timer: NodeJS.Timeout | undefined;
    const verdict = early !== undefined
      ? ({ kind: "answered", answer: early } as const)
      : await Promise.race([
          new Promise<AskVerdict>((resolve) => this.#waiting.set(call, (answer) => resolve({ kind: "answered", answer }))),
          cancelled.then((): AskVerdict => ({ kind: "cancelled" })),
          ...(this.timeoutMs === undefined ? [] : [new Promise<AskVerdict>((resolve) => (timer = setTimeout(() => resolve({ kind: "timeout", timeoutMs: this.timeoutMs ?? 0 }), this.timeoutMs)))]),
        ]);
    clearTimeout(timer);
    this.#waiting.delete(call);
    this.#settled.add(call);
    this.#onSettled?.(call);
    if (verdict.kind === "answered" && verdict.answer.action === "allow" && verdict.answer.alwaysForRun === true) this.#always.set(keyOf(question), verdict.answer);
    return verdict;
  }
}

function keyOf(question: PermissionQuestion): string {
  return `${question.kind}\u0000${question.target ?? ""}`;
}
