import assert from "node:assert/strict";
import { test } from "node:test";
import { parseHTML } from "linkedom";
import { renderSummary, renderTranscript } from "./render.ts";
import { markdownDocument } from "./testing/markdown-dom.ts";
import { CORPUS_SECRET, HOSTILE_DETAILS, hostileRun } from "./testing/hostile-corpus.ts";

const { events, outputs } = hostileRun();
const source = { readOutput: (file: string) => outputs.get(file), redact: (text: string) => text.replaceAll(CORPUS_SECRET, "[redacted]"), runDir: ".baton/runs/run_x" };

const markdownDom = markdownDocument;

/** Everything a transcript must never contain, whatever the text it was made from. */
function assertInert(document: Document, text: string): void {
  assert.equal(document.querySelectorAll("img, script, iframe, object, embed, svg, link, base, form, input, video, audio, source").length, 0, "no element that loads or runs anything");
  for (const element of document.querySelectorAll("style")) assert.doesNotMatch(element.textContent ?? "", /url\(/, "no style that loads anything");
  for (const a of document.querySelectorAll("a")) {
    const href = a.getAttribute("href") ?? "";
    assert.doesNotMatch(href, /^(\w+:|\/\/)/i, `no link to a remote or script target: ${href}`);
  }
  for (const element of document.querySelectorAll("*")) {
    for (const name of element.getAttributeNames()) assert.doesNotMatch(name, /^on/i, `no event handler attribute: <${element.tagName} ${name}>`);
  }
  assert.equal(document.querySelectorAll("details").length, HOSTILE_DETAILS, "foreign text neither opens nor closes a <details>");
  assert.equal(document.querySelectorAll("details details").length, 0, "no details nested by foreign text");
  assert.equal(document.querySelectorAll("h1").length, 1, "foreign text makes no heading");
  assert.equal(document.querySelectorAll("table, hr, blockquote, code").length, 0, "foreign text makes no Markdown construct");
  assert.ok(!text.includes(CORPUS_SECRET) && !(document.body.textContent ?? "").includes(CORPUS_SECRET), "the secret split across messages is redacted once joined");
  assert.ok((document.body.textContent ?? "").includes("[redacted]"));
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e]/, "no control or bidi characters");
}

test("the hostile corpus's Markdown transcript renders inert in a GitHub-flavoured renderer", () => {
  const markdown = renderTranscript(events, source, "md");
  const document = markdownDom(markdown);
  assertInert(document, markdown);
  // GitHub's autolink extension links URL-shaped text after escapes are decoded (marked does
  // not): no text node may hold one whole.
  assert.doesNotMatch(document.body.textContent ?? "", /(https?|ftp):\/\/|\bwww\./i);
  // Its e-mail autolinks too (an address, `mailto:` and `xmpp:` ones): no text holds one whole.
  assert.doesNotMatch(document.body.textContent ?? "", /[A-Za-z0-9._+-]@[A-Za-z0-9_-]+\./);
  assert.ok((document.body.textContent ?? "").includes("write to ops@\u200bevil.example"), "the address is still there to read");
  // Text stays readable as text: the script tag is shown, not run.
  assert.ok((document.body.textContent ?? "").includes("<script>alert('x')</script>"));
  assert.ok((document.body.textContent ?? "").includes("![leak](https:"));
});

test("the hostile corpus's bounded summary renders inert too, at every step of its ladder", () => {
  for (const maxBytes of [1_000_000, 40_000, 12_000]) {
    const markdown = renderSummary(events, source, { format: "md", maxBytes, completeTranscript: ".baton/runs/run_x/transcript.md" });
    assert.ok(Buffer.byteLength(markdown) <= maxBytes, `${Buffer.byteLength(markdown)} <= ${maxBytes}`);
    const document = markdownDom(markdown);
    assert.equal(document.querySelectorAll("img, script, iframe, svg").length, 0);
    assert.ok(!markdown.includes(CORPUS_SECRET));
  }
});

test("the hostile corpus's HTML transcript is inert as a page and loads nothing", () => {
  const html = renderTranscript(events, source, "html");
  const { document } = parseHTML(html);
  assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  // The page's own style is the only style element, and it loads nothing.
  assert.equal(document.querySelectorAll("style").length, 1);
  assertInert(document, html);
});
