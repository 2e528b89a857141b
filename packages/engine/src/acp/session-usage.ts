import type { Usage } from "@baton/protocol";
import { definedFields } from "@baton/protocol/core";
import { CompactionWatch } from "./compaction-watch.ts";
import { asInt, asNumber, asObject, asString, type JsonObject } from "./json-access.ts";
import type { MapperContext } from "./mapper-context.ts";
import { addUsage, usageOf } from "./update-fields.ts";

const EMPTY_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

/**
 * One session's usage: the context and cost the agent reports (`usage.updated` as a total), the
 * tokens each prompt's answer adds (`usage.updated` as a delta, summed here), and the
 * compactions its context readings show or the agent reports (`agent.compacted`).
 */
export class SessionUsage {
  readonly #context: MapperContext;
  /** The number of the turn an `agent.compacted` belongs to, if one is open. */
  readonly #turnNumber: () => number | undefined;
  readonly #compaction = new CompactionWatch();
  #total: Usage = { ...EMPTY_USAGE };

  constructor(context: MapperContext, turnNumber: () => number | undefined) {
    this.#context = context;
    this.#turnNumber = turnNumber;
  }

  /** The tokens of every prompt answered so far. */
  get total(): Usage {
    return { ...this.#total };
  }

  /** A `usage_update`: the context in use and its size, and the cost so far. */
  contextReading(update: JsonObject): void {
    const data: JsonObject = { session: this.#context.session(), basis: "total" };
    const used = asInt(update["used"]);
    const size = asInt(update["size"]);
    if (used !== undefined) data["context_used"] = used;
    if (size !== undefined) data["context_size"] = size;
    const cost = asObject(update["cost"]);
    const amount = asNumber(cost?.["amount"]);
    if (amount !== undefined && (asString(cost?.["currency"]) ?? "USD").toUpperCase() === "USD") data["cost_usd"] = amount;
    this.#context.sink.append("usage.updated", data);
    const compacted = used === undefined ? undefined : this.#compaction.reading(used);
    if (compacted !== undefined) this.#context.sink.append("agent.compacted", definedFields({ session: this.#context.session(), turn: this.#turnNumber(), ...compacted }));
  }

  /** The usage a prompt's answer (its `result`) gives, added to the total; undefined if none. */
  promptAnswered(result: JsonObject | undefined): Usage | undefined {
    const usage = usageOf(asObject(result?.["usage"]));
    if (!usage) return undefined;
    this.#total = addUsage(this.#total, usage);
    this.#context.sink.append("usage.updated", { session: this.#context.session(), basis: "delta", ...usage });
    return usage;
  }

  /** An agent that reports its compaction as a tool call: recorded as it says, not inferred. */
  compactionReported(): void {
    this.#context.sink.append("agent.compacted", definedFields({ session: this.#context.session(), turn: this.#turnNumber(), inferred: false, ...this.#compaction.reported() }));
  }
}
