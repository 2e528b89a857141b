import { escapeHtml, escapeHtmlInMarkdown, escapeMarkdownInline, escapeMarkdownText, markdownParagraph } from "./safe-text.ts";

/** A piece of a paragraph: plain text, or text shown strong (a label). Both may be foreign. */
export type Inline = string | { strong: string };

/**
 * A transcript as a small tree of blocks, rendered to Markdown or HTML. Every string in it is
 * text (never markup): the renderers escape all of it, so no builder can forget to.
 */
export type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "para"; parts: Inline[] }
  | { kind: "pre"; text: string }
  | { kind: "details"; summary: string; children: Block[] }
  | { kind: "list"; items: Inline[][] };

export function para(...parts: Inline[]): Block {
  return { kind: "para", parts };
}

/** GitHub-flavoured Markdown. Foreign text is escaped; the only raw HTML is Baton's own. */
export function blocksToMarkdown(blocks: readonly Block[]): string {
  return blocks.map(blockToMarkdown).join(MARKDOWN_BETWEEN_BLOCKS);
}

/** What stands between two blocks rendered on their own: `blocksToMarkdown` is their join. */
export const MARKDOWN_BETWEEN_BLOCKS = "\n\n";
export const HTML_BETWEEN_BLOCKS = "\n";

/** One block of {@link blocksToMarkdown}. */
export function blockToMarkdown(block: Block): string {
  switch (block.kind) {
    case "heading":
      return `${"#".repeat(block.level)} ${escapeMarkdownText(oneLine(block.text))}`;
    case "para":
      return inlineToMarkdown(block.parts);
    case "pre":
      // An HTML block that starts with `<pre` lasts to the line holding `</pre>` (CommonMark
      // 4.6, type 1), blank lines included, and its content is not Markdown: escaped text in it
      // can end it no sooner.
      return `<pre>\n${escapeHtmlInMarkdown(block.text)}\n</pre>`;
    case "details":
      return `<details><summary>${escapeHtmlInMarkdown(oneLine(block.summary))}</summary>\n\n${blocksToMarkdown(block.children)}\n\n</details>`;
    case "list":
      return block.items.map((item) => `- ${inlineToMarkdown(item).replace(/\n/g, "\n  ")}`).join("\n");
  }
}

function inlineToMarkdown(parts: readonly Inline[]): string {
  return markdownParagraph(parts.map((part) => (typeof part === "string" ? escapeMarkdownInline(part) : `**${escapeMarkdownInline(oneLine(part.strong))}**`)).join(""));
}

/** HTML element content. Foreign text is escaped; the elements are Baton's own. */
export function blocksToHtml(blocks: readonly Block[]): string {
  return blocks.map(blockToHtml).join(HTML_BETWEEN_BLOCKS);
}

/** One block of {@link blocksToHtml}. */
export function blockToHtml(block: Block): string {
  switch (block.kind) {
    case "heading":
      return `<h${block.level}>${escapeHtml(oneLine(block.text))}</h${block.level}>`;
    case "para":
      return `<p>${inlineToHtml(block.parts)}</p>`;
    case "pre":
      return `<pre>${escapeHtml(block.text)}</pre>`;
    case "details":
      return `<details><summary>${escapeHtml(oneLine(block.summary))}</summary>\n${blocksToHtml(block.children)}\n</details>`;
    case "list":
      return `<ul>${block.items.map((item) => `<li>${inlineToHtml(item)}</li>`).join("")}</ul>`;
  }
}

function inlineToHtml(parts: readonly Inline[]): string {
  return parts.map((part) => (typeof part === "string" ? escapeHtml(part) : `<strong>${escapeHtml(part.strong)}</strong>`)).join("").replace(/\n/g, "<br>\n");
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ");
}
