import { applyEvent, initialRunState, type Envelope, type RunState, type StageScope } from "@baton/protocol/core";
import type { EventSink } from "../acp/event-mapper.ts";
import type { Redactor } from "../redaction/redactor.ts";

/** The part of the run log writer that a run needs. */
export type RunLogWriter = {
  readonly runId: string;
  readonly number: number;
  readonly dir: string;
  /** Seq of the last event appended (0 before the first). */
  readonly lastSeq: number;
  /** Aborted when the log cannot be written any more (a full or read-only disk); `close()` then reports why. */
  readonly failure: AbortSignal;
  append(type: string, data: Record<string, unknown>, stage?: StageScope): Envelope;
  publish(type: string, data: Record<string, unknown>, stage?: StageScope): void;
  close(): Promise<void>;
  /** The run's stored events from its first, after `close` too (its transcript is made of them). */
  readLog(): AsyncIterable<Envelope>;
};

/**
 * The single way a run emits events: every event is redacted when it is constructed, before
 * it gets a seq, is written or is fanned out. It also keeps the run's state folded from what
 * it appended, so the closing event can carry totals without rereading the log.
 */
export class RunSink implements EventSink {
  readonly #writer: RunLogWriter;
  readonly #redactor: Redactor;
  readonly state: RunState;
  readonly #listeners: Set<(envelope: Envelope) => void>;
  /** The stage visit every event of this sink is scoped to (a workflow stage), if any. */
  readonly stage: StageScope | undefined;

  constructor(writer: RunLogWriter, redactor: Redactor, shared?: { state: RunState; listeners: Set<(envelope: Envelope) => void> }, stage?: StageScope) {
    this.#writer = writer;
    this.#redactor = redactor;
    this.state = shared?.state ?? initialRunState();
    this.#listeners = shared?.listeners ?? new Set();
    this.stage = stage;
  }

  /** The same run's sink, its events scoped to a stage visit: one state, one set of listeners. */
  inStage(stage: StageScope): RunSink {
    return new RunSink(this.#writer, this.#redactor, { state: this.state, listeners: this.#listeners }, stage);
  }

  append(type: string, data: Record<string, unknown>): void {
    // Once the log cannot be written, the run is being ended (see executeRun) and what it still
    // emits is lost with the disk: dropped here, not thrown into the agent's message handling.
    // The failure itself is not lost: the writer's close() reports it.
    if (this.#writer.failure.aborted) return;
    const envelope = this.#writer.append(type, this.#redactor.redactValue(data), this.stage);
    applyEvent(this.state, envelope);
    for (const listener of this.#listeners) listener(envelope);
  }

  /**
   * Text as Baton may keep it anywhere outside the log too: a name or message derived from the
   * task (its branch, worktree folder, commit message) is made from this form, since a slug or a
   * cut line would no longer hold the secret whole for the log's redaction to find.
   */
  redactText(text: string): string {
    return this.#redactor.redactText(text);
  }

  /** Calls `listener` after each durable event is appended and folded. Returns how to stop. */
  onAppend(listener: (envelope: Envelope) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Ephemeral text is already redacted by the stream redactor that held it back. */
  publish(type: string, data: Record<string, unknown>): void {
    if (this.#writer.failure.aborted) return;
    this.#writer.publish(type, data, this.stage);
  }
}
