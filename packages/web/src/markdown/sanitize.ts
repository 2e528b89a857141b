import DOMPurify from "dompurify";
import { SAFE_HREF } from "./markdown-html.ts";

/** What Markdown makes, and nothing else: no img, no iframe, no form, no style, no event handler. */
const ALLOWED_TAGS = ["p", "br", "hr", "em", "strong", "del", "code", "pre", "blockquote", "ul", "ol", "li", "a", "span", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td", "input"];
const ALLOWED_ATTR = ["href", "rel", "target", "class", "start", "type", "checked", "disabled", "align"];

let hooked = false;

/** HTML from markdownHtml made safe by DOMPurify (in the browser), links checked once more. */
export function sanitizeHtml(html: string): string {
  if (!hooked) {
    hooked = true;
    DOMPurify.addHook("afterSanitizeAttributes", (node) => {
      if (node.tagName === "A") {
        const href = node.getAttribute("href") ?? "";
        if (!SAFE_HREF.test(href)) node.removeAttribute("href");
        node.setAttribute("rel", "noopener noreferrer nofollow");
        node.setAttribute("target", "_blank");
      }
      // GFM task lists are the only inputs: checkboxes, shown, never used.
      if (node.tagName === "INPUT" && node.getAttribute("type") !== "checkbox") node.remove();
    });
  }
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i, ALLOW_DATA_ATTR: false });
}
