// The run page's controls, each through the API and read back from the stream: a permission
// question answered Allow (and Deny), steering, cancel; what changed as a diff; artifacts; the
// usage charts; and the page's layout at 1280×800 (visible, nothing overlapping).
import assert from "node:assert/strict";
import { appendFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import type { Locator, Page } from "playwright-core";
import { makeGate } from "@baton/testkit/gate";
import { testTempDir } from "@baton/protocol/testing";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, newestRunId, renderedSeqs, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, readLog, startRun, startServe, waitFor, writeScript } from "@baton/testkit/baton-cli";

const ASK_AND_CAPTURE = `
[artifacts]
include = ["*.png", "*.txt"]

[[permissions.rules]]
name = "ask-echo"
action = "ask"
kind = "execute"
pattern = "echo *"
`;

/** A 1×1 PNG. */
const PNG_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

async function askingProject(prefix: string): Promise<string> {
  const repo = await makeProject(prefix);
  await appendFile(join(repo, ".baton", "config.toml"), ASK_AND_CAPTURE);
  return repo;
}

test("a permission question is allowed from the page, steering is delivered, and the page shows what changed, artifacts, charts, in a clean layout", { skip: browserSkipReason() }, async () => {
  const repo = await askingProject("web-run-page-");
  const { server, url } = await startServe(repo, await freePort(), "web-run-page-token-0123456789");
  await using browser = await launchBrowser();
  const steered = await makeGate("steered");
  const finish = await makeGate("finish");
  const script = await writeScript(repo, "steps.json", [
    { say: "Writing the greeting." },
    { write: { path: "src/greet.js", content: "export const greet = (name) => `Hello, ${name}!`;\nexport default greet;\n" } },
    { usage: { input_tokens: 1200, output_tokens: 300, cost_usd: 0.12 } },
    { run: "echo asked > asked.txt" },
    { run: `printf %s ${PNG_BASE64} | base64 -d > shot.png` },
    { usage: { input_tokens: 800, output_tokens: 200, cost_usd: 0.08 } },
    steered.step,
    finish.step,
    { say: "**Done**: the greeting is in `src/greet.js`." },
  ]);
  const run = startRun(repo, "Add a greeting", script);
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const errors = failOnPageErrors(page);
    await openRunPage(page, url);

    // The question waits for a person: the tab says so, and Allow answers it through the API.
    const question = page.locator(".permission-open");
    await question.waitFor();
    await waitFor("the title to show a run waiting", async () => (await page.title()).startsWith("(1 waiting)"));
    assert.equal(await page.locator('link[rel="icon"]').getAttribute("data-waiting"), "true");
    const call = await question.getAttribute("data-call");
    await question.getByRole("button", { name: "Allow", exact: true }).click();
    // The decision shown is the stream's permission.resolved, by the web's name.
    const decided = page.locator(`.permission[data-call="${call}"]`, { hasText: "allow_once" });
    await decided.waitFor();
    assert.match(await decided.innerText(), /by web/);
    assert.equal(await page.locator(".permission-open").count(), 0);
    await waitFor("the title to drop the waiting mark", async () => !(await page.title()).startsWith("("));

    // Steering: queued, then delivered, as the run's events say.
    const runId = await newestRunId(repo);
    // The last command done, the turn waits at the steering gate.
    await page.locator(".item-tool", { hasText: "base64" }).locator(".tool-facts", { hasText: "exit 0" }).waitFor();
    await page.getByLabel("Tell the agent").fill("Also handle an empty name.");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator('.steer-status[data-state="queued"], .steer-status[data-state="delivered"]').waitFor();
    await page.locator(".timeline", { hasText: "web steered: Also handle an empty name." }).waitFor();
    await steered.open();
    await page.locator('.steer-status[data-state="delivered"]').waitFor();
    await finish.open();
    await waitForRunEnd(page);
    assert.equal(await run.exited, 0, run.output);

    // What changed: the files with their +/- lines and each file's diff, from the API. The view
    // fetches again as the run's events move on: wait for the fetch made after the commit.
    await page.locator(".changes-source", { hasText: /^Commit [0-9a-f]{10}/ }).waitFor();
    await page.locator(".changes-total", { hasText: /3 files/ }).waitFor();
    const greet = page.locator('.diff-file[data-path="src/greet.js"]');
    await greet.waitFor();
    assert.match(await greet.locator("summary").innerText(), /src\/greet\.js\s+added\s+\+2\s+−0/);
    assert.deepEqual(await greet.locator(".diff-add .code").allInnerTexts(), ["+export const greet = (name) => `Hello, ${name}!`;", "+export default greet;"]);
    assert.match(await page.locator(".changes-total").innerText(), /3 files \+3 −0/);
    assert.match(await page.locator(".changes-source").innerText(), /^Commit [0-9a-f]{10} against its base [0-9a-f]{10}$/);

    // Artifacts: the picture inline from Baton's API, the text file a link.
    const image = page.locator(".artifact-images img");
    await image.waitFor();
    assert.match((await image.getAttribute("src")) ?? "", /^\/api\/runs\/1\/artifacts\/[0-9a-f]{64}\?token=/);
    await waitFor("the picture to load", () => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 1));
    assert.equal(await page.locator(".artifact-files a", { hasText: "asked.txt" }).count(), 1);

    // The charts, over time and per turn; the summary's figures.
    // uPlot loads on first use: wait for both plots to be drawn.
    await page.locator('.chart[data-chart="time"] canvas').waitFor();
    await page.locator('.chart[data-chart="turn"] canvas').waitFor();
    assert.equal(await page.locator(".usage-charts canvas").count(), 2);
    const header = await page.locator(".run-header").innerText();
    assert.match(header, /2,000 in \/ 500 out tokens/);
    assert.match(header, /\$0\.20/);
    assert.match(header, /Branch\s+baton\//);
    assert.match(header, /Commit\s+[0-9a-f]{10}/);
    // Bookkeeping is folded away, and every event is still on the page once.
    assert.equal(await page.locator(".fold details[open]").count(), 0);
    assert.ok((await page.locator(".fold").count()) > 0);
    assert.ok((await page.locator(".turn-group").count()) > 0);
    const log = await readLog(repo, runId);
    assert.deepEqual((await renderedSeqs(page)).sort((a, b) => a - b), log.map((event) => event.seq));

    await checkLayout(page);
    assert.deepEqual(errors, []);
  } finally {
    await run.kill();
    await server.kill();
  }
});

test("Deny from the page, or one of the agent's own options, rejects the call; Cancel ends the run; each as the stream records it", { skip: browserSkipReason() }, async () => {
  const repo = await askingProject("web-deny-cancel-");
  const { server, url } = await startServe(repo, await freePort(), "web-deny-cancel-token-0123456789");
  await using browser = await launchBrowser();
  const hold = await makeGate("hold");
  const script = await writeScript(repo, "steps.json", [{ run: "echo first" }, { run: "echo second" }, hold.step, { say: "never said" }]);
  const run = startRun(repo, "Ask then wait", script);
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await openRunPage(page, url);
    const resolvedOf = async (call: string | null) =>
      (await readLog(repo, await newestRunId(repo))).find((event) => event.type === "permission.resolved" && event.data["call"] === call)?.data;

    // The first question: the agent's own "reject once" option, sent with its id.
    const first = page.locator(".permission-open");
    await first.waitFor();
    const firstCall = await first.getAttribute("data-call");
    assert.ok((await first.locator("button.option").count()) >= 2, "the agent's options are offered");
    await first.locator('button.option[data-option-kind="reject_once"]').click();
    await page.locator(`.permission[data-call="${firstCall}"]`, { hasText: "reject_once" }).waitFor();
    assert.equal((await resolvedOf(firstCall))?.["option_id"], "reject_once");

    // The second: Deny, with a reason.
    const second = page.locator(".permission-open");
    await second.waitFor();
    const secondCall = await second.getAttribute("data-call");
    assert.notEqual(secondCall, firstCall);
    await second.getByLabel("Reason for a denial").fill("not now");
    await second.getByRole("button", { name: "Deny" }).click();
    await page.locator(`.permission[data-call="${secondCall}"]`, { hasText: "reject_once" }).waitFor();
    const resolved = await resolvedOf(secondCall);
    assert.equal(resolved?.["reason"], "not now");
    assert.equal(resolved?.["by"], "human");

    await page.getByRole("button", { name: "Cancel run" }).click();
    await waitForRunEnd(page);
    assert.match(await page.locator(".run-header").innerText(), /cancelled/);
    assert.match(await page.locator(".timeline .item-end").innerText(), /cancelled/);
    assert.equal(await page.getByRole("button", { name: "Cancel run" }).count(), 0);
    assert.equal(await page.locator(".steer").count(), 0, "no steering box on an ended run");
    await run.exited;
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

/**
 * The run page at 1280×800: its main parts visible, inside the viewport's width, and not
 * overlapping one another (bounding boxes), whatever the pixels. A screenshot is kept for a person.
 */
async function checkLayout(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  const parts: Record<string, Locator> = {
    header: page.locator(".run-header"),
    changes: page.locator(".changes"),
    artifacts: page.locator(".artifacts"),
    charts: page.locator(".usage-charts"),
    timeline: page.locator(".timeline"),
  };
  const boxes: Array<[string, { x: number; y: number; width: number; height: number }]> = [];
  for (const [name, locator] of Object.entries(parts)) {
    assert.ok(await locator.isVisible(), `${name} is visible`);
    const box = await locator.boundingBox();
    assert.ok(box !== null && box.width > 0 && box.height > 0, `${name} has a size`);
    assert.ok(box.x >= 0 && box.x + box.width <= 1280, `${name} fits the width: ${JSON.stringify(box)}`);
    boxes.push([name, box]);
  }
  for (const [index, [a, boxA]] of boxes.entries()) {
    for (const [b, boxB] of boxes.slice(index + 1)) {
      const overlap = boxA.x < boxB.x + boxB.width && boxB.x < boxA.x + boxA.width && boxA.y < boxB.y + boxB.height && boxB.y < boxA.y + boxA.height;
      assert.ok(!overlap, `${a} and ${b} overlap: ${JSON.stringify(boxA)} ${JSON.stringify(boxB)}`);
    }
  }
  // The two charts apart from each other, within the charts section.
  const charts = await page.locator(".usage-charts .chart").evaluateAll((nodes) => nodes.map((node) => node.getBoundingClientRect().toJSON() as DOMRect));
  const section = await page.locator(".usage-charts").evaluate((node) => node.getBoundingClientRect().toJSON() as DOMRect);
  assert.equal(charts.length, 2);
  const [first, second] = charts as [DOMRect, DOMRect];
  assert.ok(first.right <= second.left || first.bottom <= second.top, `the charts do not overlap: ${JSON.stringify(charts)}`);
  for (const chart of charts) assert.ok(chart.left >= section.left && chart.right <= section.right && chart.bottom <= section.bottom, "each chart inside its section");
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, "no sideways scrolling");
  await page.screenshot({ path: join(await testTempDir("web-layout-"), "run-page-1280x800.png"), fullPage: false });
}
