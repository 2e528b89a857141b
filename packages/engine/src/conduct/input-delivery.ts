import type { LiveSession } from "../acp/live-session.ts";
import type { InputQueue } from "../input/input-queue.ts";
import { personNote, promptWithInputs } from "../input/person-note.ts";
import type { Next } from "./session-ends.ts";

/**
 * Delivers people's inputs to the conductor's session: at once, beside the running turn, to an
 * agent that takes notices (`mid_turn`); otherwise as a turn of its own when the running turn
 * ends (`next_turn`); inputs that waited for this session ride on its first prompt
 * (`with_prompt`). Each delivery is an `input.delivered` with the turn that carried it.
 */
export class InputDelivery {
  readonly #queue: InputQueue | undefined;
  readonly #canNotify: () => boolean;
  #live: LiveSession | undefined;
  #stop: (() => void) | undefined;

  constructor(queue: InputQueue | undefined, canNotify: () => boolean) {
    this.#queue = queue;
    this.#canNotify = canNotify;
  }

  /** From now on, inputs that come while a turn the agent may be told about runs go to it at once. */
  start(live: LiveSession): void {
    this.#live = live;
    this.#stop = this.#queue?.onQueued(() => this.#midTurn());
  }

  stop(): void {
    this.#stop?.();
    this.#stop = undefined;
    this.#live = undefined;
  }

  /** The session's first prompt, with whatever inputs waited for it. */
  firstPrompt(task: string, reason: "task" | "fix" = "task"): { next: Next; sent: (turn: number) => void } {
    const inputs = this.#queue?.take() ?? [];
    return {
      next: { text: promptWithInputs(task, inputs), reason },
      sent: (turn) => this.#queue?.delivered(inputs, "with_prompt", this.#where(turn)),
    };
  }

  /** At a turn's end: a turn for the inputs waiting, if any. */
  atBoundary(): { next: Next; sent: (turn: number) => void } | undefined {
    const inputs = this.#queue?.take() ?? [];
    if (inputs.length === 0) return undefined;
    return { next: { text: personNote(inputs), reason: "steer" }, sent: (turn) => this.#queue?.delivered(inputs, "next_turn", this.#where(turn)) };
  }

  /** Whether inputs wait for the next turn boundary. */
  get waiting(): boolean {
    return (this.#queue?.size ?? 0) > 0;
  }

  #midTurn(): void {
    const live = this.#live;
    if (live === undefined || !this.#canNotify()) return;
    const inputs = this.#queue?.take() ?? [];
    if (inputs.length === 0) return;
    const turn = live.notice(personNote(inputs));
    this.#queue?.delivered(inputs, "mid_turn", this.#where(turn));
  }

  #where(turn: number): { session?: string; turn: number } {
    const session = this.#live?.id;
    return session === undefined ? { turn } : { session, turn };
  }
}
