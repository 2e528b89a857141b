import type { Layout } from "./layout.ts";
import { blockToHtml, blockToMarkdown, HTML_BETWEEN_BLOCKS, MARKDOWN_BETWEEN_BLOCKS, type Block } from "./nodes.ts";
import { escapeHtml } from "./safe-text.ts";
import { byteLength } from "./text-cut.ts";

export type TranscriptFormat = "md" | "html";

/** A transcript's document of `blocks`: Markdown, or a standalone HTML page. */
export function finish(blocks: Block[], renderer: Renderer, layout: Layout): string {
  if (renderer.format === "md") return `${renderer.joined(blocks)}\n`;
  return htmlDocument(htmlTitle(layout), renderer.joined(blocks));
}

function htmlTitle(layout: Layout): string {
  return layout.head[0]?.kind === "heading" ? layout.head[0].text : "Baton run";
}

/**
 * Renders blocks in one format, each block once: a block laid out again the same (the same
 * object, see `LayoutMemo`) is given as it was rendered, and its size in bytes with it.
 * Joined, its blocks are what `blocksToMarkdown` or `blocksToHtml` makes of them.
 */
export class Renderer {
  readonly format: TranscriptFormat;
  readonly #between: string;
  /** Undefined for a renderer that keeps nothing (one document of blocks seen once). */
  readonly #rendered: Map<Block, { text: string; bytes?: number }> | undefined;

  constructor(format: TranscriptFormat, options: { keep: boolean }) {
    this.format = format;
    this.#between = format === "md" ? MARKDOWN_BETWEEN_BLOCKS : HTML_BETWEEN_BLOCKS;
    if (options.keep) this.#rendered = new Map();
  }

  joined(blocks: readonly Block[]): string {
    return blocks.map((block) => this.#block(block).text).join(this.#between);
  }

  /** The bytes of {@link joined}, without joining. */
  joinedBytes(blocks: readonly Block[]): number {
    let bytes = this.#between.length * Math.max(0, blocks.length - 1);
    for (const block of blocks) {
      const rendered = this.#block(block);
      rendered.bytes ??= byteLength(rendered.text);
      bytes += rendered.bytes;
    }
    return bytes;
  }

  /** The bytes of the document `finish` makes of `blocks`, without making it. */
  documentBytes(blocks: readonly Block[], layout: Layout): number {
    const around = this.format === "md" ? 1 : byteLength(htmlDocument(htmlTitle(layout), ""));
    return around + this.joinedBytes(blocks);
  }

  #block(block: Block): { text: string; bytes?: number } {
    let rendered = this.#rendered?.get(block);
    if (rendered === undefined) {
      rendered = { text: this.format === "md" ? blockToMarkdown(block) : blockToHtml(block) };
      this.#rendered?.set(block, rendered);
    }
    return rendered;
  }
}

/** A standalone page that loads nothing: its policy forbids every fetch, script and frame. */
function htmlDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
pre { background: #f6f8fa; padding: .75rem; overflow: auto; white-space: pre-wrap; word-break: break-word; }
details { border: 1px solid #d0d7de; border-radius: 6px; padding: .25rem .75rem; margin: .5rem 0; }
summary { cursor: pointer; font-family: ui-monospace, monospace; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}
