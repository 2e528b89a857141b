// The run list: each run's stage, branch, duration and cost from the API, a status filter, and
// a run waiting for a person marked in its row, the tab's title and its icon, live.
import assert from "node:assert/strict";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { makeGate } from "@baton/testkit/gate";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, newestRunId } from "./page.ts";
import { freePort, makeProject, readLog, startRun, startServe, waitFor, writeScript } from "@baton/testkit/baton-cli";

const ASK_RULE = `
[[permissions.rules]]
name = "ask-echo"
action = "ask"
kind = "execute"
pattern = "echo *"
`;

test("the run list shows figures, filters by status, and says when a run waits for a person", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-list-");
  await appendFile(join(repo, ".baton", "config.toml"), ASK_RULE);
  const token = "web-list-token-0123456789";
  const { server, url } = await startServe(repo, await freePort(), token);
  await using browser = await launchBrowser();
  const first = startRun(repo, "Spend a little", await writeScript(repo, "spend.json", [{ say: "ok" }, { usage: { input_tokens: 7, output_tokens: 3, cost_usd: 0.25 } }]));
  assert.equal(await first.exited, 0, first.output);
  const hold = await makeGate("hold");
  const second = startRun(repo, "Ask a person", await writeScript(repo, "ask.json", [{ run: "echo asked" }, hold.step]));
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await page.goto(url);
    const done = page.locator('tr[data-status="succeeded"]', { hasText: "Spend a little" });
    await done.locator(".cost-cell", { hasText: "$0.25" }).waitFor();
    assert.match(await done.locator(".branch-cell").innerText(), /^baton\//);
    assert.match(await done.locator(".duration-cell").innerText(), /\d/);

    // The question makes the row, the title and the icon say a person is awaited.
    const asking = page.locator('tr[data-waiting="permission"]', { hasText: "Ask a person" });
    await asking.waitFor();
    assert.match(await asking.innerText(), /waiting for you \(a permission\)/);
    await waitFor("the title to count the waiting run", async () => (await page.title()) === "(1 waiting) Runs · Baton");
    assert.equal(await page.locator('link[rel="icon"]').getAttribute("data-waiting"), "true");

    // The filter shows one status at a time.
    await page.getByLabel("Status").selectOption("succeeded");
    assert.deepEqual(await page.locator("tr[data-run] .task-cell").allInnerTexts(), ["Spend a little"]);
    await page.getByLabel("Status").selectOption("running");
    assert.deepEqual(await page.locator("tr[data-run] .task-cell").allInnerTexts(), ["Ask a person"]);
    await page.getByLabel("Status").selectOption("cancelled");
    await page.getByText("No cancelled runs.").waitFor();
    await page.getByLabel("Status").selectOption("");

    // Answered elsewhere (the API), the list follows: no mark, a plain title.
    const runId = await newestRunId(repo);
    const call = String((await readLog(repo, runId)).find((event) => event.type === "permission.requested")?.data["call"]);
    const answer = await fetch(`${new URL(url).origin}/api/runs/2/permissions/${encodeURIComponent(call)}/allow`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 202);
    await page.locator('tr[data-status="running"]:not([data-waiting])', { hasText: "Ask a person" }).waitFor();
    await waitFor("the title to drop the count", async () => (await page.title()) === "Runs · Baton");
    assert.equal(await page.locator('link[rel="icon"]').getAttribute("data-waiting"), "false");
    await hold.open();
    assert.equal(await second.exited, 0, second.output);
    await page.locator('tr[data-status="succeeded"]', { hasText: "Ask a person" }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await second.kill();
    await server.kill();
  }
});
