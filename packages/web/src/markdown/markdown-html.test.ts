import assert from "node:assert/strict";
import { test } from "node:test";
import { markdownHtml } from "./markdown-html.ts";

test("Markdown renders; raw HTML, images and unsafe links come out as text", () => {
  assert.equal(markdownHtml("**bold** and `code`").trim(), "<p><strong>bold</strong> and <code>code</code></p>");
  assert.equal(markdownHtml("<script>alert(1)</script>").trim(), '<p class="md-raw">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  assert.equal(markdownHtml("a <b onclick=x>b</b>").trim(), "<p>a &lt;b onclick=x&gt;b&lt;/b&gt;</p>");
  assert.equal(markdownHtml("![x](http://evil.test/p.png)").trim(), '<p><span class="md-image">[image: x · http://evil.test/p.png]</span></p>');
  assert.equal(markdownHtml("[a](javascript:alert(1))").trim(), "<p>[a](javascript:alert(1))</p>");
  assert.equal(markdownHtml("</details>").trim(), '<p class="md-raw">&lt;/details&gt;</p>');
});

test("a safe link keeps its address in view beside its text", () => {
  assert.equal(
    markdownHtml("[docs](https://example.test/a?b=1&c=2)").trim(),
    '<p><a href="https://example.test/a?b=1&amp;c=2" rel="noopener noreferrer nofollow" target="_blank">docs</a> <span class="link-target">(https://example.test/a?b=1&amp;c=2)</span></p>',
  );
  assert.equal(markdownHtml("see https://example.test").trim(), '<p>see <a href="https://example.test" rel="noopener noreferrer nofollow" target="_blank">https://example.test</a></p>');
  assert.match(markdownHtml("[rel](/api/runs/1)"), /^<p>\[rel\]\(\/api\/runs\/1\)<\/p>/);
});
