import assert from "node:assert/strict";
import { test } from "node:test";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, startRun, startServe, writeScript } from "./serve-harness.ts";

const HOSTILE = `<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> and [x](javascript:alert(1))`;

test("agent text that looks like HTML, script or a Markdown link shows as literal text", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-xss-");
  const script = await writeScript(repo, "steps.json", [{ think: HOSTILE }, { say: HOSTILE }, { run: `echo '${HOSTILE.replaceAll("'", "")}'` }]);
  const run = startRun(repo, HOSTILE, script);
  assert.equal(await run.exited, 0, run.output);
  const { server, url } = await startServe(repo, await freePort(), "web-xss-token-0123456789");
  await using browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await page.goto(url);
    await page.locator("tr[data-run]").waitFor();
    await page.goto(`${new URL(url).origin}/#/runs/1`);
    await waitForRunEnd(page);

    assert.deepEqual(await page.locator(".timeline .item-message").allInnerTexts(), [HOSTILE]);
    assert.equal(await page.locator(".run-header .task").innerText(), HOSTILE);
    await page.locator(".timeline .item-thought summary").click();
    assert.equal(await page.locator(".timeline .item-thought .text").innerText(), HOSTILE);
    assert.equal(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned), undefined);
    assert.equal(await page.locator("main img, main script").count(), 0, "no element was made from agent text");
    const hrefs = await page.locator("a[href]").evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    assert.ok(hrefs.every((href) => !/^\s*javascript:/i.test(href)), `links: ${hrefs.join(", ")}`);
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
  }
});
