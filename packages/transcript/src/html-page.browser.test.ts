import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { chromium } from "playwright-core";
import { renderTranscript } from "./render.ts";
import { CORPUS_SECRET, HOSTILE_DETAILS, hostileRun } from "./testing/hostile-corpus.ts";

// Debian's chromium, driven by playwright-core (never a browser playwright downloads), as the
// web UI's tests use it. Without it the test skips, unless BATON_REQUIRE_BROWSER is set (CI).
const CHROMIUM_PATH = "/usr/bin/chromium";
const skip = existsSync(CHROMIUM_PATH) || process.env["BATON_REQUIRE_BROWSER"] ? false : `${CHROMIUM_PATH} is missing (apt-get install chromium); set BATON_REQUIRE_BROWSER=1 to fail instead of skipping`;

test("the hostile corpus's HTML transcript, viewed in chromium, runs nothing, loads nothing, and keeps its details", { skip }, async () => {
  const { events, outputs } = hostileRun();
  const html = renderTranscript(events, { readOutput: (file) => outputs.get(file), redact: (text) => text.replaceAll(CORPUS_SECRET, "[redacted]") }, "html");
  const file = join(await mkdtemp(join(tmpdir(), "baton-transcript-")), "transcript.html");
  await writeFile(file, html);

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(45_000);
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
    assert.equal(await page.locator("details").count(), HOSTILE_DETAILS);
    assert.equal(await page.locator("img, script, iframe, svg, a").count(), 0);
    // Opening every block shows its text; nothing in it runs or loads when it becomes visible.
    for (const summary of await page.locator("summary").all()) await summary.click();
    assert.equal(await page.locator("details[open]").count(), HOSTILE_DETAILS);
    const text = await page.locator("body").innerText();
    assert.ok(text.includes("<img src=x onerror=alert(1)>"), "the image tag is shown as text");
    assert.ok(text.includes("[redacted]") && !text.includes(CORPUS_SECRET));
    // Let any script that slipped through run: a round trip through the page's event loop.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    assert.deepEqual(dialogs, [], "no script ran");
    assert.deepEqual(requests.filter((url) => url !== pathToFileURL(file).href), [], "the page loaded nothing besides itself");
  } finally {
    await browser.close();
  }
});
