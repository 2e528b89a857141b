/**
 * Below this share of the last reading, a fall in the context an agent reports is taken for a
 * compaction: a turn's own growth and cache effects move it by far less, while a compaction
 * summarizes most of the conversation away.
 */
export const COMPACTION_DROP_SHARE = 0.5;
import { definedFields } from "@baton/protocol/core";
/**
 * Readings under this many tokens are not compared: a short session's context swings with each
 * call's own tokens (some agents report a call's, not the conversation's), and a compaction
 * only happens near a model's window, tens of thousands of tokens in.
 */
export const MIN_COMPACTED_CONTEXT = 10_000;

export type Compaction = { inferred: true; context_before: number; context_after: number };

/**
 * A tool call by which an agent reports that it compacts its context: Mistral Vibe's is titled
 * "Compacting context" while it runs and "Context compacted" once done.
 */
export const COMPACTION_TOOL_TITLE = /^(compacting context|context compacted)\b/i;

/**
 * Watches one session's context readings (`usage_update.used`) for the drop a compaction makes,
 * for agents that do not report their compactions (those that do: {@link reported}).
 *
 * @example
 * const watch = new CompactionWatch();
 * watch.reading(150_000); // undefined
 * watch.reading(20_000);  // { inferred: true, context_before: 150000, context_after: 20000 }
 */
export class CompactionWatch {
  #last: number | undefined;

  /**
   * The agent reported a compaction: the last reading is the context before it, and the next
   * reading is not compared with it (the drop is that compaction, not another).
   */
  reported(): { context_before?: number } {
    const last = this.#last;
    this.#last = undefined;
    return definedFields({ context_before: last });
  }

  reading(used: number): Compaction | undefined {
    const last = this.#last;
    this.#last = used;
    if (last === undefined || last < MIN_COMPACTED_CONTEXT || used >= last * COMPACTION_DROP_SHARE) return undefined;
    return { inferred: true, context_before: last, context_after: used };
  }
}
