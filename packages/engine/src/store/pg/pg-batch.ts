import type { CatalogPatch, Envelope } from "@baton/protocol/core";

/** Events appended while the previous batch was being committed: committed together. */
export class PgBatch {
  readonly events: Envelope[] = [];
  readonly seqs: number[] = [];
  readonly bodies: string[] = [];
  readonly patch: CatalogPatch = {};
  bytes = 0;
  readonly durable: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;

  constructor() {
    this.durable = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // A batch nobody awaits must not be an unhandled rejection: its failure is reported through the writer.
    this.durable.catch(() => {});
  }
}

/** Rows per batch: one statement's arrays stay small enough for the server. */
export const MAX_BATCH_EVENTS = 5_000;
