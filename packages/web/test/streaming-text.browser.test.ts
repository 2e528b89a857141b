import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { liveReaderCount } from "@baton/engine/store/testing";
import { makeGate } from "@baton/testkit/gate";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, newestRunId, waitForRunEnd } from "./page.ts";
import { freePort, makeProject, startRun, startServe, waitFor, writeScript } from "@baton/testkit/baton-cli";

const FIRST = "Reading the repository first, ";
const SECOND = "then the tests, and only then the code they cover, one file at a time, slowly and carefully, noting what each does.";
const TEXT = FIRST + SECOND;

test("agent text streams on the run page (a run written by baton run) before its message lands; the list follows the feed from feed_pos", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-stream-");
  // A first run, finished: the feed has events the list must not replay.
  const first = startRun(repo, "An earlier run", await writeScript(repo, "first.json", [{ say: "Done before." }]));
  assert.equal(await first.exited, 0, first.output);
  const token = "web-stream-token-0123456789";
  const { server, url } = await startServe(repo, await freePort(), token);
  await using browser = await launchBrowser();
  try {
    const list = await browser.context.newPage();
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page, failOnPageErrors(list));
    const feedUrls: string[] = [];
    list.on("request", (request) => {
      if (new URL(request.url()).pathname === "/api/stream") feedUrls.push(request.url());
    });
    await list.goto(url);
    await list.locator('[data-connection="live"]').waitFor();
    const { feed_pos: feedPos } = (await (await list.request.get(`${new URL(url).origin}/api/runs?token=${token}`)).json()) as { feed_pos: number };
    assert.ok(feedPos > 0);
    assert.equal(new URL(feedUrls[0] ?? "http://x/").searchParams.get("after"), String(feedPos), "the list follows the feed from feed_pos");

    // The text streams in two parts of one message (no tool call or change of kind between
    // them); the turn then stays open, and agent.message lands only at its end. The agent
    // waits at a gate before each part and before the end; the test opens each once the page
    // shows what came before. The first opens only when the server reads the run's live
    // socket: deltas sent before that are gone by design.
    const [first, second, end] = await Promise.all([makeGate("first"), makeGate("second"), makeGate("end")]);
    const script = await writeScript(repo, "steps.json", [first.step, { say: FIRST }, second.step, { say: SECOND }, end.step]);
    const run = startRun(repo, "Stream some text", script);
    try {
      // The new run shows up in the list through the feed (no replay from 0 needed).
      await list.locator('tr[data-status="running"]').getByText("Stream some text").waitFor();
      await page.goto(`${url}#/runs/2`);
      await page.locator('[data-connection="live"]').waitFor();
      const runDir = join(repo, ".baton", "runs", await newestRunId(repo));
      await waitFor("the server to read the run's live socket", () => liveReaderCount(runDir) >= 1);
      await first.open();
      const streaming = page.locator(".timeline .item-streaming");
      await streaming.getByText("Reading the repository first", { exact: false }).waitFor();
      await second.open();
      await streaming.getByText("one file at a time, slowly and carefully, noting what each does.", { exact: false }).waitFor();
      assert.equal(await page.locator(".timeline .item-message:not(.item-streaming)").count(), 0, "the complete message has not landed yet");
      assert.equal((await streaming.innerText()).trim(), TEXT, "the streamed text is the whole message, in one item");
      await end.open();
      await waitForRunEnd(page);
      assert.equal(await run.exited, 0, run.output);
    } finally {
      await run.kill();
    }
    assert.deepEqual(await page.locator(".timeline .item-message").allInnerTexts(), [TEXT]);
    assert.equal(await page.locator(".timeline .item-streaming").count(), 0, "the streamed text became the message");
    await list.locator('tr[data-status="succeeded"]').getByText("Stream some text").waitFor();
    assert.equal(await list.locator("tr[data-run]").count(), 2);
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
  }
});
