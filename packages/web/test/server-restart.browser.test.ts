import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import { makeGate } from "@baton/testkit/gate";
import type { Page } from "playwright-core";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, onlyRunId, renderedSeqs, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, readLog, startRun, startServe, waitFor, writeScript } from "@baton/testkit/baton-cli";

/** One step of the run: a command, then a message that says it is done. */
const step = (i: number): unknown[] => [{ run: `echo step ${i}` }, { say: `Step ${i} done.` }];

test("the run page survives a server restart mid-run: nothing shown twice, nothing missing", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-restart-");
  const port = await freePort();
  const token = "web-restart-token-0123456789";
  let { server, url } = await startServe(repo, port, token);
  // The run is written by `baton run`, not by the server: it goes on while the server is down.
  // It waits at two gates the test opens: once the server is down (steps 2 to 5 are then
  // written with nobody serving them), and once it is back (steps 6 to 8 then stream live).
  const serverDown = await makeGate("server-down");
  const serverBack = await makeGate("server-back");
  const steps: unknown[] = [{ say: "Starting." }, { run: "echo step 1" }, serverDown.step, { say: "Step 1 done." }];
  for (let i = 2; i <= 5; i += 1) steps.push(...step(i));
  steps.push(serverBack.step);
  for (let i = 6; i <= 8; i += 1) steps.push(...step(i));
  const script = await writeScript(repo, "steps.json", steps);
  const run = startRun(repo, "Survive a restart", script);
  await using browser = await launchBrowser();
  try {
    // The run's page, and the run list in another tab.
    const page = await browser.context.newPage();
    const list = await browser.context.newPage();
    const errors = failOnPageErrors(page, failOnPageErrors(list));
    const runId = await waitForRun(repo);
    await page.goto(`${url}#/runs/1`);
    await list.goto(url);
    await list.locator('tr[data-status="running"]').waitFor();
    await toolShown(page, 1);

    await server.kill();
    await page.locator('[data-connection="reconnecting"]').waitFor();
    await list.locator('[data-connection="reconnecting"]').waitFor();
    await serverDown.open();
    // The run writes while nobody serves it, up to the second gate; then the server comes back.
    await waitFor("the run to write steps 2 to 5 while the server is down", async () => (await readLog(repo, runId)).some((event) => isToolEnd(event, 5)));
    ({ server, url } = await startServe(repo, port, token));
    await page.locator('[data-connection="live"]').waitFor();
    await toolShown(page, 5);
    assert.equal(await page.locator(".timeline .item-end").count(), 0, "the run is still going");
    await serverBack.open();

    await waitForRunEnd(page);
    assert.equal(await run.exited, 0);
    const log = await readLog(repo, runId);
    const shown = await renderedSeqs(page);
    assert.equal(new Set(shown).size, shown.length, `no event is shown twice: ${shown.join(" ")}`);
    assert.deepEqual([...shown].sort((a, b) => a - b), log.map((event) => event.seq), "every event of the log is shown");
    const messages = await page.locator(".timeline .item-message").allInnerTexts();
    assert.deepEqual(messages, log.filter((event) => event.type === "agent.message").map((event) => event.data["text"]));
    assert.equal(messages.length, 9);
    assert.equal(await page.locator(".timeline .item-tool").count(), 8);
    await list.locator('[data-connection="live"]').waitFor();
    await list.locator('tr[data-status="succeeded"]').waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await run.kill();
    await server.kill();
  }
});

/** Waits until the page shows step `i`'s command as finished (its exit code). */
async function toolShown(page: Page, i: number): Promise<void> {
  await page.locator(".timeline .item-tool", { hasText: `echo step ${i}` }).locator(".tool-facts", { hasText: "exit 0" }).waitFor();
}

/** Whether `event` ends step `i`'s command (its output, in the preview, names the step). */
function isToolEnd(event: Envelope, i: number): boolean {
  return event.type === "tool.completed" && String(event.data["preview"] ?? "").includes(`step ${i}`);
}

async function waitForRun(repo: string): Promise<string> {
  let id = "";
  await waitFor("the run to be created", async () => {
    id = await onlyRunId(repo).catch(() => "");
    return id !== "" && (await readLog(repo, id).catch(() => [])).length > 0;
  });
  return id;
}
