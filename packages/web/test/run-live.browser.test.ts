import assert from "node:assert/strict";
import { test } from "node:test";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, onlyRunId, renderedSeqs, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, readLog, startRun, startServe, writeScript } from "./serve-harness.ts";

test("a run started elsewhere appears in the list and completes live on its page", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-live-");
  const { server, url } = await startServe(repo, await freePort(), "web-live-token-0123456789");
  await using browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await page.goto(url);
    await page.locator('[data-connection="live"]').waitFor();
    assert.ok(!page.url().includes("token="), "the token is removed from the address bar");
    await page.getByText("No runs yet.").waitFor();

    const script = await writeScript(repo, "steps.json", [
      { sleep: 1500 },
      { say: "Looking at the repository." },
      { run: "echo listing && exit 3" },
      { sleep: 500 },
      { say: "Finished the greeting." },
    ]);
    const run = startRun(repo, "Add a greeting", script);
    try {
      // The row appears without a reload, then follows the run to its end.
      const row = page.locator("tr[data-run]");
      await row.waitFor();
      await row.getByText("Add a greeting").waitFor();
      await page.locator('tr[data-status="succeeded"]').waitFor({ timeout: 45_000 });
      await row.getByRole("link", { name: "Add a greeting" }).click();
      await waitForRunEnd(page);
      assert.equal(await run.exited, 0);
    } finally {
      await run.kill();
    }

    const messages = await page.locator(".timeline .item-message").allInnerTexts();
    assert.deepEqual(messages, ["Looking at the repository.", "Finished the greeting."]);
    const tool = page.locator(".timeline .item-tool");
    assert.equal(await tool.count(), 1);
    assert.match(await tool.innerText(), /echo listing && exit 3/);
    assert.match(await tool.innerText(), /exit 3/);
    assert.match(await tool.innerText(), /failed/);
    assert.match(await tool.locator(".preview").innerText(), /listing/);
    assert.match(await page.locator(".timeline .item-end").innerText(), /succeeded/);
    assert.match(await page.locator(".run-header").innerText(), /succeeded/);

    const log = await readLog(repo, await onlyRunId(repo));
    // The complete output is linked when the trace store has it, and the link works.
    const completed = log.find((event) => event.type === "tool.completed");
    if (typeof completed?.data["output_file"] === "string") {
      const response = await page.request.get(await tool.locator("a.output-link").getAttribute("href").then((href) => new URL(href!, page.url()).href));
      assert.equal(response.status(), 200);
      assert.match(await response.text(), /listing/);
    } else assert.equal(await tool.locator("a.output-link").count(), 0);
    assert.deepEqual((await renderedSeqs(page)).sort((a, b) => a - b), log.map((event) => event.seq));
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
  }
});
