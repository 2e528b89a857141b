import assert from "node:assert/strict";
import { test } from "node:test";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, startRun, startServe, writeScript } from "@baton/testkit/baton-cli";

const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> and [x](javascript:alert(1))`;
/** Markdown that would load a remote image, run a script link, or close the page's own <details>. */
const MARKDOWN = [
  "**Done**: see [the docs](https://example.test/docs) and ![x](http://127.0.0.1:9/pwned.png)",
  "",
  "[a](javascript:window.__pwned=3) and [b](data:text/html,hi)",
  "",
  "</details><img src=x onerror=\"window.__pwned=4\">",
].join("\n");

test("agent text that looks like HTML, script or a Markdown link shows as literal text", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-xss-");
  const script = await writeScript(repo, "steps.json", [{ think: `${HOSTILE}\n</details>` }, { say: HOSTILE }, { run: `echo '${HOSTILE.replaceAll("'", "")}'` }, { say: MARKDOWN }]);
  const run = startRun(repo, HOSTILE, script);
  assert.equal(await run.exited, 0, run.output);
  const { server, url } = await startServe(repo, await freePort(), "web-xss-token-0123456789");
  await using browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    // Nothing the agent wrote may make the page load from anywhere but Baton.
    const foreign: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(new URL(url).origin) && !request.url().startsWith("data:")) foreign.push(request.url());
    });
    await page.goto(url);
    await page.locator("tr[data-run]").waitFor();
    await page.goto(`${new URL(url).origin}/#/runs/1`);
    await waitForRunEnd(page);

    const messages = page.locator(".timeline .item-message");
    assert.equal(await messages.count(), 2);
    assert.equal(await messages.nth(0).innerText(), HOSTILE);
    // Markdown renders; its image is its description and address; unsafe links stay text; a
    // closing </details> is text inside the message and closes nothing of the page.
    const markdown = messages.nth(1);
    assert.equal(await markdown.locator("strong").innerText(), "Done");
    const docs = markdown.locator('a[href="https://example.test/docs"]');
    assert.equal(await docs.innerText(), "the docs");
    assert.equal(await docs.getAttribute("rel"), "noopener noreferrer nofollow");
    const text = await markdown.innerText();
    assert.match(text, /the docs \(https:\/\/example\.test\/docs\)/, "a link shows its target");
    assert.match(text, /\[image: x · http:\/\/127\.0\.0\.1:9\/pwned\.png\]/);
    assert.match(text, /\[a\]\(javascript:window\.__pwned=3\) and \[b\]\(data:text\/html,hi\)/);
    assert.match(text, /<\/details><img src=x onerror="window\.__pwned=4">/);
    assert.equal(await markdown.locator("a").count(), 1, "the only link is the safe one");
    assert.equal(await page.locator(".timeline .item-message details, .timeline .item-message img").count(), 0);
    assert.equal(await page.locator(".timeline .item-thought details").count(), 1, "the thought keeps its one <details>");
    assert.equal(await page.locator(".run-header .task").innerText(), HOSTILE);
    await page.locator(".timeline .item-thought summary").click();
    assert.equal(await page.locator(".timeline .item-thought .text").innerText(), `${HOSTILE}\n</details>`);
    // The thought's closing tag stayed text: its <details> still holds its text, nothing after it.
    assert.equal(await page.locator(".timeline .item-thought > details > .text").count(), 1);
    assert.equal(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned), undefined);
    assert.equal(await page.locator("main img, main script").count(), 0, "no element was made from agent text");
    const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    assert.ok(hrefs.every((href) => !/^\s*javascript:/i.test(href)), `links: ${hrefs.join(", ")}`);
    assert.deepEqual(foreign, [], "no request left Baton's origin");
    // And should HTML ever get past the sanitizer, the page's policy stops a remote load.
    const violated = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          document.addEventListener("securitypolicyviolation", (event) => resolve(event.effectiveDirective), { once: true });
          const beacon = document.createElement("img");
          beacon.src = "http://127.0.0.1:9/beacon.png";
          document.body.append(beacon);
        }),
    );
    assert.equal(violated, "img-src");
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
  }
});
