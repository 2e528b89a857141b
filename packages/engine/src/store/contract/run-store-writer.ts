import type { Envelope, StageScope } from "@baton/protocol/core";

/**
 * The envelope `append` returns: as stored (its `data` replaced by a truncation marker if it
 * was too large), with `durable`, a promise that resolves once the event is durable and
 * indexed and rejects if its batch failed. `durable` is not an own enumerable property, so
 * the envelope serializes, spreads and clones as a plain envelope.
 */
export type DurableEnvelope = Envelope & { readonly durable: Promise<void> };

export type EventListener = (event: Envelope) => void;

/**
 * The one writer of a run: it holds the run (a lock, or a lease), gives each event its seq
 * at once and commits them in groups, durable before they are delivered.
 */
export interface RunStoreWriter extends AsyncDisposable {
  readonly runId: string;
  readonly number: number;
  /** The run's local directory on this machine: its launch record, cancel request, agent threads. */
  readonly dir: string;
  /** Seq of the last event appended (durable or not yet). */
  readonly lastSeq: number;
  /** Seq of the last event that is durable and indexed. */
  readonly committedSeq: number;
  /** True once a final event (completed, failed, cancelled) has been appended. */
  readonly ended: boolean;
  /**
   * Aborted, with the error as its reason, when the writer breaks (the log cannot be written
   * any more, or the writer lost the run). Whoever produces the run's events ends the run.
   */
  readonly failure: AbortSignal;
  /** Appends a durable event; its seq is assigned before this returns. */
  append(type: string, data: Record<string, unknown>, stage?: StageScope): DurableEnvelope;
  /** Delivers an ephemeral event (no seq, never written) in order with the durable ones. */
  publish(type: string, data: Record<string, unknown>, stage?: StageScope): Envelope;
  /** Receives this writer's events in this process; returns the unsubscribe function. */
  subscribe(listener: EventListener): () => void;
  /** Resolves when every event appended so far is durable; rejects if the writer broke. */
  flush(): Promise<void>;
  /** Flushes and gives the run up. Rejects with the write error if the writer broke. */
  close(): Promise<void>;
  /**
   * The run's stored events from its first, after `close` too: what its transcript is made
   * of. A run taken over from another machine holds events this process never wrote.
   */
  readLog(): AsyncIterable<Envelope>;
}
