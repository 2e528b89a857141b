// Agent text as Markdown, made safe in two steps: marked's renderer here never makes raw HTML,
// images or links to anything but http(s)/mailto (they show as their text), and sanitize.ts
// then passes the result through DOMPurify with an allow-list, in case a rule here is wrong.
import { Marked, type Tokens } from "marked";

/** Where a link may point: web pages and mail. Anything else (javascript:, data:, relative) is shown, not linked. */
export const SAFE_HREF = /^(?:https?:\/\/|mailto:)[^\s]*$/i;

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    // Raw HTML, block or inline, is shown as the text it is.
    html(token: Tokens.HTML | Tokens.Tag): string {
      const text = escapeHtml(token.text);
      return "block" in token && token.block ? `<p class="md-raw">${text}</p>` : text;
    },
    // An image would load from wherever it points: it is shown as its description and address.
    image(token: Tokens.Image): string {
      return `<span class="md-image">[image: ${escapeHtml(token.text)} · ${escapeHtml(token.href)}]</span>`;
    },
    link(token: Tokens.Link): string {
      if (!SAFE_HREF.test(token.href)) return escapeHtml(token.raw);
      const inner = this.parser.parseInline(token.tokens);
      const href = escapeHtml(token.href);
      // The target is shown beside the text whenever the text does not already say it.
      const target = token.text === token.href || `mailto:${token.text}` === token.href ? "" : ` <span class="link-target">(${href})</span>`;
      return `<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">${inner}</a>${target}`;
    },
  },
});

/** Markdown to HTML that holds no raw HTML, no image and no link but http(s)/mailto. Sanitize it before use. */
export function markdownHtml(text: string): string {
  return marked.parse(text, { async: false });
}
