import type { Block } from "./nodes.ts";
import { byteLength, cutText } from "./text-cut.ts";

/** A text as the layout takes it (redacted, read from its file), with its length in bytes. */
export type Measured = { text: string; bytes: number };

export function measured(text: string): Measured {
  return { text, bytes: byteLength(text) };
}

/** `text` cut to `bytes` in `shape` (whole without a bound). */
export function cutMeasured(text: Measured, bytes: number | undefined, shape: "head" | "head_tail"): { text: string; leftOutBytes: number } {
  return bytes === undefined || text.bytes <= bytes ? { text: text.text, leftOutBytes: 0 } : cutText(text.text, bytes, shape);
}

/** How a cut to `bytes` in `shape` leaves `text`: whole (any bound it fits gives the same), or cut so. */
export function cutKey(text: Measured, bytes: number | undefined, shape: "head" | "head_tail"): string {
  return bytes === undefined || text.bytes <= bytes ? "whole" : `${bytes} ${shape}`;
}

/**
 * What the layouts of one run share. The summary's ladder lays a run out at ever tighter limits,
 * and most items come out of a step as they went in (a tool call whose output fits either bound,
 * prose shorter than the cut): under the same effective cuts (the key), an item is given the
 * same blocks, the same objects, which a renderer renders once. The texts an item is laid out
 * from (redacted, an output read from its file) are made once too. It keeps an item's latest
 * blocks only: the ladder only tightens. It lives as long as one rendering of a run: its maps
 * are plain ones (weak ones cost the collector more, for nothing here).
 */
export class LayoutMemo {
  /** Undefined for a memo that keeps nothing: one layout alone has nothing to share, and what is kept costs the collector. */
  readonly #blocks: Map<object, { key: string; blocks: Block[] }> | undefined;
  readonly #texts: Map<object, unknown> | undefined;

  /** `keep: false` makes a memo for a single layout, which makes everything anew. */
  constructor(options: { keep: boolean }) {
    if (options.keep) {
      this.#blocks = new Map();
      this.#texts = new Map();
    }
  }

  /** The blocks of `item` under `key`: those made last if the key is the same, else `make()`'s. */
  blocks(item: object, key: string, make: () => Block[]): Block[] {
    const known = this.#blocks?.get(item);
    if (known?.key === key) return known.blocks;
    const blocks = make();
    this.#blocks?.set(item, { key, blocks });
    return blocks;
  }

  /** What `make` gives for `item`, made on first use. */
  texts<T>(item: object, make: () => T): T {
    const known = this.#texts?.get(item);
    if (known !== undefined) return known as T;
    const texts = make();
    this.#texts?.set(item, texts);
    return texts;
  }
}
