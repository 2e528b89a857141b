import type { PersonReply } from "./question-reply.ts";

/** How a question put to a person ended: answered, unanswered for its timeout, or its turn cancelled. */
export type QuestionVerdict = { kind: "answered"; reply: PersonReply } | { kind: "timeout"; timeoutMs: number } | { kind: "cancelled" };

/** What became of a reply that arrived: it ended its question, waits for it, came too late, or does not fit the form. */
export type ReplyReceipt = "taken" | "kept" | "late" | "refused";

/**
 * The questions of a run that wait for a person: each waits for the reply left for it (the
 * first reply wins: the file of the first is the one read), at most `timeoutMs` (undefined: as
 * long as it takes). A reply that comes before its question is put (the question is logged
 * first) is kept for it. `unattended`: nobody will answer, and questions are declined at once.
 */
export class QuestionAsker {
  readonly timeoutMs: number | undefined;
  readonly unattended: boolean;
  readonly #waiting = new Map<string, { fits: (reply: PersonReply) => boolean; resolve: (reply: PersonReply) => void }>();
  readonly #early = new Map<string, PersonReply>();
  readonly #settled = new Set<string>();
  readonly #onSettled: ((question: string) => void) | undefined;

  constructor(options: { timeoutMs?: number | undefined; unattended?: boolean; onSettled?: (question: string) => void }) {
    this.timeoutMs = options.timeoutMs;
    this.unattended = options.unattended === true;
    this.#onSettled = options.onSettled;
  }

  /**
   * A person's reply arrived: it ends the question waiting for it (`taken`), or waits for it
   * (`kept`). One for a question that ended already changes nothing (`late`), and one whose
   * content does not fit the form (its file was not left by Baton's checks) is `refused`.
   */
  receive(reply: PersonReply): ReplyReceipt {
    const waiting = this.#waiting.get(reply.question);
    if (waiting !== undefined) {
      if (!waiting.fits(reply)) return "refused";
      waiting.resolve(reply);
      return "taken";
    }
    if (this.#settled.has(reply.question)) return "late";
    this.#early.set(reply.question, reply);
    return "kept";
  }

  /** Puts a question to a person and waits for a reply that `fits`, the timeout, or `cancelled`. */
  async ask(question: string, fits: (reply: PersonReply) => boolean, cancelled: Promise<unknown>): Promise<QuestionVerdict> {
    const early = this.#early.get(question);
    this.#early.delete(question);
    let timer: NodeJS.Timeout | undefined;
    const verdict =
      early !== undefined && fits(early)
        ? ({ kind: "answered", reply: early } as const)
        : await Promise.race([
            new Promise<QuestionVerdict>((resolve) => this.#waiting.set(question, { fits, resolve: (reply) => resolve({ kind: "answered", reply }) })),
            cancelled.then((): QuestionVerdict => ({ kind: "cancelled" })),
            ...(this.timeoutMs === undefined ? [] : [new Promise<QuestionVerdict>((resolve) => (timer = setTimeout(() => resolve({ kind: "timeout", timeoutMs: this.timeoutMs ?? 0 }), this.timeoutMs)))]),
          ]);
    clearTimeout(timer);
    this.#waiting.delete(question);
    this.#settled.add(question);
    this.#onSettled?.(question);
    return verdict;
  }
}
