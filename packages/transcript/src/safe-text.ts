// Every piece of foreign text (agent prose, tool output, file names, the task) passes through
// here before it reaches a transcript. The rule: foreign text can only ever become text. It can
// open no HTML element, load no image, make no link, close none of the transcript's own
// `<details>`, and start no Markdown construct (heading, list, table, emphasis, code).

/**
 * C0 and C1 control characters (tab and newline kept), and the bidirectional overrides and
 * isolates that make text read differently from what it is (CVE-2021-42574, "Trojan Source").
 */
const UNSAFE_CHARACTERS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A zero-width space breaks what GitHub's Markdown would otherwise turn into a link by itself
 * (`https://…`, `www.…`, an e-mail address, `mailto:` and `xmpp:` ones): its autolink extension
 * runs on text after entities are decoded, so an entity cannot stop it, but a character inside
 * the pattern does.
 */
const LINK_BREAK = "\u200b";
const SCHEME_SLASHES = /:\/\//g;
const WWW_DOT = /\b(www)\./gi;
/** The `@` of an e-mail address (GitHub's rule: local part, `@`, a domain with a dot). */
const EMAIL_AT = /([A-Za-z0-9._+-])@(?=[A-Za-z0-9_-]+\.)/g;

/** Foreign text with the characters that can hide or reorder text replaced. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(UNSAFE_CHARACTERS, "\ufffd");
}

/** Text for HTML (element content or a quoted attribute value): nothing in it is markup. */
export function escapeHtml(text: string): string {
  return cleanText(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** Text inside raw HTML in a Markdown file (a `<summary>`, a `<pre>`): HTML-escaped, autolinks broken. */
export function escapeHtmlInMarkdown(text: string): string {
  return breakAutolinks(escapeHtml(text));
}

/**
 * Foreign text as Markdown inline content: every ASCII punctuation character backslash-escaped
 * (CommonMark lets any be escaped, and each one escaped is literal), autolinks broken. Line
 * ends stay; {@link markdownParagraph} makes them hard breaks.
 */
export function escapeMarkdownInline(text: string): string {
  return breakAutolinks(cleanText(text)).replace(/[!-/:-@[-`{-~]/g, "\\$&");
}

/**
 * Escaped inline content as one paragraph: leading spaces made non-breaking (no indented code
 * block), blank lines kept as such (no paragraph end, so no lazy continuation or setext
 * heading), line ends made hard breaks.
 */
export function markdownParagraph(inline: string): string {
  return inline
    .split("\n")
    .map((line) => line.replace(/^[ \t]+/, (spaces) => "&nbsp;".repeat(spaces.replace(/\t/g, "    ").length)).replace(/[ \t]+$/, ""))
    .map((line) => (line === "" ? "&nbsp;" : line))
    .join("\\\n");
}

/** Foreign text as one Markdown paragraph. */
export function escapeMarkdownText(text: string): string {
  return markdownParagraph(escapeMarkdownInline(text));
}

function breakAutolinks(text: string): string {
  return text.replace(SCHEME_SLASHES, `:${LINK_BREAK}//`).replace(WWW_DOT, `$1${LINK_BREAK}.`).replace(EMAIL_AT, `$1@${LINK_BREAK}`);
}
