import type { InputLimits } from "./input-limits.ts";
import type { InputRequest } from "./input-request.ts";

/** What the queue appends to: the run's sink, which redacts what it logs. */
export type InputSink = {
  append(type: string, data: Record<string, unknown>): void;
  redactText(text: string): string;
};

/** An input taken and not yet delivered: its id, who sent it, its redacted text. */
export type QueuedInput = { id: string; by: string; text: string };

/** How an input reached the agent (`input.delivered.how`). */
export type DeliveryHow = "mid_turn" | "next_turn" | "with_prompt";

/**
 * The inputs people sent a run, waiting for its conductor: each is checked (length after
 * redaction, how many wait) and recorded `input.queued` or `input.rejected`, then handed to the
 * conductor running at the time, or kept for the next one (the next agent stage). What is
 * still waiting when the run ends is rejected `not_running`: every queued input has an end.
 */
export class InputQueue {
  readonly #sink: InputSink;
  readonly #limits: InputLimits;
  #waiting: QueuedInput[] = [];
  readonly #listeners = new Set<() => void>();
  #closed = false;

  constructor(sink: InputSink, limits: InputLimits) {
    this.#sink = sink;
    this.#limits = limits;
  }

  get size(): number {
    return this.#waiting.length;
  }

  /** Takes a person's request: queued (and the listeners told), or rejected with a code. */
  offer(request: InputRequest): void {
    const text = this.#sink.redactText(request.text.trim());
    if (this.#closed) return this.#reject(request.id, "not_running", "the run's agent has finished");
    if (text === "") return this.#reject(request.id, "too_long", "the input is empty");
    if (text.length > this.#limits.maxChars) {
      return this.#reject(request.id, "too_long", `${text.length} characters, more than the ${this.#limits.maxChars} an input may have`);
    }
    if (this.#waiting.length >= this.#limits.maxQueued) {
      return this.#reject(request.id, "too_many", `${this.#waiting.length} inputs wait for delivery already, the most there may be`);
    }
    this.#waiting.push({ id: request.id, by: request.by, text });
    this.#sink.append("input.queued", { id: request.id, by: request.by, text, chars: text.length });
    for (const listener of this.#listeners) listener();
  }

  /** Called each time an input is queued; returns a function that stops it. */
  onQueued(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Every input waiting, in order, taken off the queue: the caller delivers them and says so. */
  take(): QueuedInput[] {
    const taken = this.#waiting;
    this.#waiting = [];
    return taken;
  }

  /** Records that `inputs` reached the agent, and how. */
  delivered(inputs: readonly QueuedInput[], how: DeliveryHow, where: { session?: string; turn?: number } = {}): void {
    for (const input of inputs) this.#sink.append("input.delivered", { id: input.id, how, ...where });
  }

  /** The run is ending: what still waits is rejected, and what comes later too. */
  close(): void {
    this.#closed = true;
    for (const input of this.take()) this.#reject(input.id, "not_running", "the run ended before the input reached its agent");
  }

  #reject(id: string, code: "not_running" | "too_long" | "too_many", message: string): void {
    this.#sink.append("input.rejected", { id, code, message });
  }
}
