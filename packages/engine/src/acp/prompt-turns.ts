/**
 * Which turn each `session/prompt` request belongs to, so that its answer ends that turn: a
 * notice runs beside the task's turn and its answer must not end the task's. A turn is begun
 * just before its prompt goes out (or, in tests, just after): either order binds them.
 */
export class PromptTurns<T> {
  /** Turns begun whose prompt has not been seen going out. */
  readonly #unsent: T[] = [];
  /** Prompts seen going out before their turn was begun. */
  readonly #unbound: string[] = [];
  readonly #byRequest = new Map<string, T>();

  /** A turn was begun: it is the next (or the last unbound) prompt's. */
  begun(turn: T): void {
    const request = this.#unbound.shift();
    if (request === undefined) this.#unsent.push(turn);
    else this.#byRequest.set(request, turn);
  }

  /** A `session/prompt` with JSON-RPC id `request` went out. */
  sent(request: string): void {
    const turn = this.#unsent.shift();
    if (turn === undefined) this.#unbound.push(request);
    else this.#byRequest.set(request, turn);
  }

  /** The answer to `request` came: its turn, now unbound. */
  answered(request: string): T | undefined {
    const turn = this.#byRequest.get(request);
    this.#byRequest.delete(request);
    return turn;
  }

  /** The turn was ended another way (cancelled, failed): its answer, if any, ends nothing. */
  forget(turn: T): void {
    for (const [request, bound] of this.#byRequest) if (bound === turn) this.#byRequest.delete(request);
  }
}
