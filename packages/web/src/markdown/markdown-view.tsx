import { useMemo } from "preact/hooks";
import { markdownHtml } from "./markdown-html.ts";
import { sanitizeHtml } from "./sanitize.ts";

/**
 * An agent's message as Markdown. The only `dangerouslySetInnerHTML` of the page: the HTML is
 * marked's with raw HTML, images and unsafe links turned into text, then DOMPurify's.
 */
export function MarkdownView({ text }: { text: string }) {
  const html = useMemo(() => sanitizeHtml(markdownHtml(text)), [text]);
  return <div class="text md" dangerouslySetInnerHTML={{ __html: html }} />;
}
