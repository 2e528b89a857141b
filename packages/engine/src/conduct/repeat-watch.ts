import { createHash } from "node:crypto";
import type { FinishedToolCall } from "../acp/event-mapper.ts";

export type RepeatSignal = { tool: string; count: number; action: "notice" | "handback" };

/**
 * Counts finished tool calls in a row with the same tool, input and result. At `max` it says
 * `notice`; at the next such call, `handback`. Only a changed call or result starts over: a poll
 * that keeps answering "in progress" counts.
 */
export class RepeatWatch {
  readonly #max: number;
  #last: string | undefined;
  #count = 0;

  constructor(max: number) {
    this.#max = max;
  }

  /** Records one finished call; returns what to do about it, if anything. */
  record(call: FinishedToolCall): RepeatSignal | undefined {
    const key = fingerprint(call);
    this.#count = key === this.#last ? this.#count + 1 : 1;
    this.#last = key;
    if (this.#count === this.#max) return { tool: call.tool, count: this.#count, action: "notice" };
    if (this.#count === this.#max + 1) return { tool: call.tool, count: this.#count, action: "handback" };
    return undefined;
  }
}

function fingerprint(call: FinishedToolCall): string {
  return createHash("sha256")
    .update(JSON.stringify([call.tool, stable(call.input), call.status]))
    .update("\0")
    .update(call.output)
    .digest("hex");
}

/** JSON with object keys sorted, so the same input in another key order is the same input. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, stable((value as Record<string, unknown>)[key])]));
}
