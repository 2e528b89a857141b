import type { Envelope, StageScope } from "@baton/protocol/core";

/**
 * A durable envelope as `RunWriter.append` returns it: the envelope's fields, own and
 * enumerable in envelope order (so it serializes, spreads and clones as the plain envelope),
 * and `durable` on the prototype. A class only for that: defining a non-enumerable `durable`
 * on each plain object took about a fifth of an append's CPU (measured with
 * bench/store/append-throughput.bench.ts).
 */
export class StoredEnvelope implements Envelope {
  [key: string]: unknown;
  // Declared, not initialized: the constructor defines them in envelope order, and `stage`
  // only when the event has one (an own `stage: undefined` would not equal the plain envelope).
  declare v: number;
  declare run: string;
  declare seq: number;
  declare at: string;
  declare type: string;
  declare stage?: StageScope;
  declare data: Record<string, unknown>;
  readonly #durable: Promise<void>;

  constructor(v: number, run: string, seq: number, at: string, type: string, data: Record<string, unknown>, durable: Promise<void>, stage?: StageScope) {
    this.v = v;
    this.run = run;
    this.seq = seq;
    this.at = at;
    this.type = type;
    if (stage !== undefined) this.stage = stage;
    this.data = data;
    this.#durable = durable;
  }

  /** Resolves once the event is on disk and indexed; rejects if its batch failed. */
  get durable(): Promise<void> {
    return this.#durable;
  }
}
