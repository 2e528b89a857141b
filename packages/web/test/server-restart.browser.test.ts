import assert from "node:assert/strict";
import { test } from "node:test";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, onlyRunId, renderedSeqs, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, readLog, startRun, startServe, waitFor, writeScript } from "./serve-harness.ts";

test("the run page survives a server restart mid-run: nothing shown twice, nothing missing", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-restart-");
  const port = await freePort();
  const token = "web-restart-token-0123456789";
  let { server, url } = await startServe(repo, port, token);
  // The run is written by `baton run`, not by the server: it goes on while the server is down.
  // Its steps are slow enough (8 s in all) that a loaded machine still opens both pages while
  // it runs.
  const steps: unknown[] = [{ say: "Starting." }];
  for (let i = 1; i <= 8; i += 1) steps.push({ sleep: 1_000 }, { run: `echo step ${i}` }, { say: `Step ${i} done.` });
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
    await page.getByText("Step 1 done.").waitFor();

    await server.kill();
    await page.locator('[data-connection="reconnecting"]').waitFor();
    await list.locator('[data-connection="reconnecting"]').waitFor();
    const logAtKill = (await readLog(repo, runId)).length;
    // Let the run write while nobody serves it, then bring the server back.
    await waitFor("the run to write while the server is down", async () => (await readLog(repo, runId)).length > logAtKill + 2);
    ({ server, url } = await startServe(repo, port, token));
    await page.locator('[data-connection="live"], [data-connection="ended"]').first().waitFor();

    await waitForRunEnd(page);
    assert.equal(await run.exited, 0);
    const log = await readLog(repo, runId);
    const shown = await renderedSeqs(page);
    assert.equal(new Set(shown).size, shown.length, `no event is shown twice: ${shown.join(" ")}`);
    assert.deepEqual([...shown].sort((a, b) => a - b), log.map((event) => event.seq), "every event of the log is shown");
    const messages = await page.locator(".timeline .item-message").allInnerTexts();
    assert.deepEqual(messages, log.filter((event) => event.type === "agent.message").map((event) => event.data["text"]));
    assert.equal(await page.locator(".timeline .item-tool").count(), 8);
    await list.locator('[data-connection="live"]').waitFor();
    await list.locator('tr[data-status="succeeded"]').waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await run.kill();
    await server.kill();
  }
});

async function waitForRun(repo: string): Promise<string> {
  let id = "";
  await waitFor("the run to be created", async () => {
    id = await onlyRunId(repo).catch(() => "");
    return id !== "" && (await readLog(repo, id).catch(() => [])).length > 0;
  });
  return id;
}
