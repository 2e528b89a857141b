import type { Envelope } from "@baton/protocol/core";
import { runViewFold, type RunView } from "@baton/transcript/fold";

/**
 * A run's transcript view, folded from each event as the run appends it (as its sink folds the
 * run's state), so that the run's end renders the transcript without reading the whole log back
 * (a long run's log is read at about 120,000 events a second). It holds what the transcript
 * shows, not the events. Only a log it saw from its first event, every event in order, is folded
 * here: a log that already held events (a resumed run, one taken over from another machine) or
 * one with an event that did not come through the sink is read at the run's end instead.
 */
export class LiveRunView {
  readonly #fold = runViewFold();
  /** The seq the next event must have for the fold to stay the log's. */
  #next = 1;
  #whole: boolean;
  readonly #stop: () => void;

  /** Follows the run from now: made before the run's first event is appended. */
  constructor(sink: { onAppend(listener: (event: Envelope) => void): () => void }, writer: { readonly lastSeq: number }) {
    this.#whole = writer.lastSeq === 0;
    this.#stop = this.#whole ? sink.onAppend((event) => this.#add(event)) : () => {};
  }

  #add(event: Envelope): void {
    if (event.seq !== this.#next) return this.#giveUp();
    this.#next += 1;
    try {
      this.#fold.add(event);
    } catch {
      // Folding runs inside the run's append: it never fails the run. The log is read at the
      // end instead, where a transcript that cannot be made is a warning.
      this.#giveUp();
    }
  }

  /** The fold is not the log's any more: it stops following the run, whose log is read at the end. */
  #giveUp(): void {
    this.#whole = false;
    this.#stop();
  }

  /**
   * The view of the whole log, once the writer is closed: undefined when the log must be read
   * for it. Stops following the run.
   */
  view(writer: { readonly lastSeq: number }): RunView | undefined {
    this.#stop();
    return this.#whole && this.#next - 1 === writer.lastSeq ? this.#fold.view() : undefined;
  }
}
