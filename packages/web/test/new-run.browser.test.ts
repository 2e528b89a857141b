import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, readLog, startServe, writeScript } from "@baton/testkit/baton-cli";

test("a run started from the page's form opens its page and completes there", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-new-run-");
  await writeScript(repo, "steps.json", [{ say: "Started from the browser." }, { usage: { input_tokens: 7, output_tokens: 3, cost_usd: 0.25 } }]);
  const { server, url } = await startServe(repo, await freePort(), "web-form-token-0123456789");
  await using browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await page.goto(url);
    await page.getByText("New run").click();
    await page.getByLabel("Task", { exact: true }).fill("Say hello from the form");
    await page.getByLabel("Agent", { exact: true }).fill("fake");
    await page.getByLabel("Script (fake agent)").fill("steps.json");
    await page.getByLabel("Timeout (or the project's)").fill("2m");
    await page.getByRole("button", { name: "Start run" }).click();

    await page.waitForURL(/#\/runs\/1$/);
    await waitForRunEnd(page);
    assert.deepEqual(await page.locator(".timeline .item-message").allInnerTexts(), ["Started from the browser."]);
    const header = await page.locator(".run-header").innerText();
    assert.match(header, /Say hello from the form/);
    assert.match(header, /7 in \/ 3 out tokens/);
    assert.match(header, /\$0\.25/);
    const [runId] = await readdir(join(repo, ".baton", "runs"));
    const log = await readLog(repo, runId ?? "");
    assert.deepEqual(log[0]?.data["limits"], { timeout_ms: 120_000 }, "the form's timeout reached the run");
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
  }
});
