import { parseHTML } from "linkedom";
import { marked } from "marked";

/** Markdown rendered by a GitHub-flavoured renderer, parsed into a DOM: what a reader sees. */
export function markdownDocument(markdown: string): Document {
  const html = marked.parse(markdown, { gfm: true, async: false });
  return parseHTML(`<!doctype html><html><body>${html}</body></html>`).document;
}

/** The text a reader of the rendered Markdown sees, zero-width spaces dropped, spacing collapsed. */
export function markdownText(markdown: string): string {
  return (markdownDocument(markdown).body.textContent ?? "").replace(/\u200b/g, "").replace(/\u00a0/g, " ");
}
