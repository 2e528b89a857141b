// A question the agent asks (ACP elicitation) answered from the run page: the form built from
// question.asked's fields, a bad answer refused by the API (shown, nothing recorded), a good one
// read back from the stream's question.answered; Decline on a second question.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, newestRunId, renderedSeqs, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, readLog, startRun, startServe, waitFor, writeScript } from "@baton/testkit/baton-cli";

const FORM = {
  type: "object" as const,
  properties: {
    db: { type: "string", title: "Database", oneOf: [{ const: "postgres", title: "PostgreSQL", description: "the one we run" }, { const: "sqlite", title: "SQLite" }] },
    features: { type: "array", title: "Features", items: { anyOf: [{ const: "ttl", title: "Expiry" }, { const: "lru", title: "Eviction" }] } },
    replicas: { type: "integer", title: "Replicas", minimum: 1, maximum: 5 },
    warm: { type: "boolean", title: "Warm it up" },
    notes: { type: "string", title: "Notes" },
  },
  required: ["db"],
};

test("the agent's question is answered from the run page: its form, a refused answer shown, the answer and a decline read back from the stream", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-question-");
  const { server, url } = await startServe(repo, await freePort(), "web-question-token-0123456789");
  await using browser = await launchBrowser();
  const script = await writeScript(repo, "steps.json", [
    { ask: { message: "Which database should the cache use?", schema: FORM } },
    { ask: { message: "Shall I go on?", schema: { type: "object", properties: { go: { type: "boolean" } } } } },
    { say: "Finished." },
  ]);
  const run = startRun(repo, "Add a cache", script);
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await openRunPage(page, url);

    const question = page.locator(".question-open");
    await question.waitFor();
    // Its id, read while it is the open one: once it is answered, ".question-open" is the next
    // question, which may come before a read made after the answer was sent.
    const first = await question.getAttribute("data-question");
    await waitFor("the title to show a run waiting", async () => (await page.title()).startsWith("(1 waiting)"));
    assert.match(await question.innerText(), /The agent asks: Which database should the cache use\?/);
    assert.match(await question.innerText(), /declined after 10 min 0 s without an answer/);
    assert.deepEqual(await question.locator(".question-field").evaluateAll((fields) => fields.map((field) => (field as HTMLElement).dataset["field"])), ["db", "features", "replicas", "warm", "notes"]);
    assert.match(await question.locator('[data-field="db"] legend').innerText(), /Database \(required\)/);

    // Out of range: the API refuses it, the page says why, nothing is recorded.
    await question.getByLabel("PostgreSQL").check();
    await question.getByLabel("Replicas").fill("9");
    await question.getByRole("button", { name: "Send answer" }).click();
    await question.getByRole("alert").filter({ hasText: 'field "replicas" must be at most 5, not 9' }).waitFor();
    const runId = await newestRunId(repo);
    assert.equal((await readLog(repo, runId)).filter((event) => event.type === "question.answered").length, 0);

    await question.getByLabel("Replicas").fill("2");
    await question.getByLabel("Expiry").check();
    await question.getByLabel("Eviction").check();
    await question.getByLabel("Warm it up").check();
    await question.getByRole("button", { name: "Send answer" }).click();
    const answered = page.locator(`.question[data-question="${first}"] .question-answer`);
    await answered.waitFor();
    assert.equal(await answered.innerText(), "Answered db: postgres; features: ttl, lru; replicas: 2; warm: true (by web)");

    // The second question: Decline.
    const second = page.locator(".question-open");
    await second.waitFor();
    assert.notEqual(await second.getAttribute("data-question"), first);
    await second.getByRole("button", { name: "Decline" }).click();
    await waitForRunEnd(page);
    assert.equal(await run.exited, 0, run.output);
    assert.equal(await page.locator(".question-open").count(), 0);
    await waitFor("the title to drop the waiting mark", async () => !(await page.title()).startsWith("("));

    const log = await readLog(repo, runId);
    const answers = log.filter((event) => event.type === "question.answered").map(({ data }) => [data["action"], data["content"], data["by"], data["who"], data["via"]]);
    assert.deepEqual(answers, [
      ["accept", { db: "postgres", features: ["ttl", "lru"], replicas: 2, warm: true }, "human", "web", "web"],
      ["decline", undefined, "human", "web", "web"],
    ]);
    assert.match(await page.locator(".question", { hasText: "Shall I go on?" }).innerText(), /Declined \(by web\)/);
    assert.deepEqual((await renderedSeqs(page)).sort((a, b) => a - b), log.map((event) => event.seq));
    assert.deepEqual(errors, []);
  } finally {
    await run.kill();
    await server.kill();
  }
});

/** Opens run 1's page once the list shows the run (its page needs the run to exist). */
async function openRunPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator("tr[data-run]").waitFor();
  await page.goto(`${new URL(url).origin}/#/runs/1`);
  await page.locator('[data-connection="live"]').waitFor();
}
