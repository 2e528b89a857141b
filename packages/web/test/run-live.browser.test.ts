import assert from "node:assert/strict";
import { test } from "node:test";
import { makeGate } from "@baton/testkit/gate";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, onlyRunId, renderedSeqs, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, readLog, startRun, startServe, writeScript } from "@baton/testkit/baton-cli";

test("a run started elsewhere appears in the list and completes live on its page", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-live-");
  const { server, url } = await startServe(repo, await freePort(), "web-live-token-0123456789");
  await using browser = await launchBrowser();
  try {
    // Two tabs: the run list stays open beside the run's page.
    const list = await browser.context.newPage();
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page, failOnPageErrors(list));
    await list.goto(url);
    await list.locator('[data-connection="live"]').waitFor();
    assert.ok(!list.url().includes("token="), "the token is removed from the address bar");
    await list.getByText("No runs yet.").waitFor();

    // The run waits at a gate until the test has seen its page show it running: it ends when
    // the test says, however slow the machine.
    const finish = await makeGate("finish");
    const script = await writeScript(repo, "steps.json", [
      { say: "Looking at the repository." },
      { run: "echo listing && exit 3" },
      finish.step,
      { say: "Finished the greeting." },
    ]);
    const run = startRun(repo, "Add a greeting", script);
    try {
      // The row appears without a reload while the run is still going; its page follows it live.
      await list.locator('tr[data-status="running"]').getByText("Add a greeting").waitFor();
      const href = await list.locator("tr[data-run]").getByRole("link", { name: "Add a greeting" }).getAttribute("href");
      assert.equal(href, "#/runs/1");
      await page.goto(`${url}${href}`);
      await page.locator('[data-connection="live"]').waitFor();
      await page.getByText("Looking at the repository.").waitFor();
      await page.locator(".timeline .item-tool .tool-facts", { hasText: "exit 3" }).waitFor();
      assert.equal(await page.locator(".timeline .item-end").count(), 0, "the page shows the run before its end");
      await finish.open();
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
    assert.deepEqual((await renderedSeqs(page)).sort((a, b) => a - b), log.map((event) => event.seq));
    // The complete output is linked when the trace store has it, and the link works.
    const completed = log.find((event) => event.type === "tool.completed");
    if (typeof completed?.data["output_file"] === "string") {
      const response = await page.request.get(await tool.locator("a.output-link").getAttribute("href").then((href) => new URL(href!, page.url()).href));
      assert.equal(response.status(), 200);
      assert.match(await response.text(), /listing/);
    } else assert.equal(await tool.locator("a.output-link").count(), 0);

    // The list, never reloaded, has followed the run to its end.
    await list.locator('tr[data-status="succeeded"]').getByText("Add a greeting").waitFor();
    assert.equal(await list.locator("tr[data-run]").count(), 1);
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
  }
});
