import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { browserSkipReason, launchBrowser } from "./browser.ts";
import { failOnPageErrors, onlyRunId, renderedSeqs, waitForRunEnd } from "./page.ts";
import { Baton, batonEnv, freePort, makeProject, readLog, startServe, waitFor, writeScript } from "@baton/testkit/baton-cli";

const REVIEW = `digraph review {
  goal = "Write the plan and ship it"
  start [shape=Mdiamond]
  plan [label="Plan", prompt="Write PLAN.md for: {{ goal }}"]
  check [shape=parallelogram, script="test -s PLAN.md"]
  approve [shape=hexagon, label="Ship the plan?"]
  exit [shape=Msquare]
  start -> plan -> check -> approve
  approve -> exit [label="[A] Approve"]
  approve -> plan [label="[R] Revise"]
}
`;

test("a workflow run paused at a gate shows the gate and its graph; Approve on the page resumes it, followed live to its end", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-gate-");
  await mkdir(join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(repo, ".baton", "workflows", "review.dot"), REVIEW);
  const script = await writeScript(repo, "stages.json", { stages: { plan: [{ write: { path: "PLAN.md", content: "1. ship\n" } }, { say: "The plan is written." }] } });
  const run = new Baton(repo, ["run", "--workflow", "review", "--script", script], batonEnv());
  assert.equal(await run.exited, 4, `paused at its gate: ${run.output}`);
  const { server, url } = await startServe(repo, await freePort(), "web-gate-token-0123456789");
  await using browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await page.goto(url);
    const row = page.locator('tr[data-status="paused"]');
    await row.waitFor();
    assert.equal(await row.locator(".badge").innerText(), "waiting", "the list shows the paused run as waiting");
    await row.getByRole("link").first().click();
    await page.waitForURL(/#\/runs\/1$/);

    const gate = page.locator("section.gate");
    await gate.waitFor();
    assert.equal(await gate.locator(".gate-question").innerText(), "Ship the plan?");
    assert.deepEqual(await gate.getByRole("button").allInnerTexts(), ["Approve", "Revise", "Reject"]);
    const node = (id: string) => page.locator(`.workflow-graph [data-node="${id}"]`);
    await node("approve").and(page.locator('[data-state="waiting"]')).waitFor();
    for (const id of ["start", "plan", "check"]) assert.equal(await node(id).getAttribute("data-state"), "succeeded", id);
    assert.equal(await node("exit").getAttribute("data-state"), "not_visited");
    assert.match(await page.locator('.stage-group[data-stage="plan"]').innerText(), /The plan is written\./, "the agent's words are under their stage");

    await gate.getByRole("button", { name: "Approve" }).click();
    await waitForRunEnd(page);
    assert.equal(await gate.count(), 0, "the answered gate is gone");
    for (const id of ["start", "plan", "check", "approve", "exit"]) {
      await node(id).and(page.locator('[data-state="succeeded"]')).waitFor();
    }
    assert.match(await page.locator(".timeline .item-end").innerText(), /succeeded/);
    assert.match(await page.locator('.stage-group[data-stage="approve"]').innerText(), /answered Approve · by .+ · via web/);

    const log = await readLog(repo, await onlyRunId(repo));
    const resolved = log.filter((event) => event.type === "approval.resolved");
    assert.equal(resolved.length, 1);
    assert.equal(resolved[0]?.data["via"], "web");
    assert.equal(resolved[0]?.data["choice"], "Approve");
    assert.equal(log.at(-1)?.type, "run.completed");
    assert.deepEqual((await renderedSeqs(page)).sort((a, b) => a - b), log.map((event) => event.seq), "every event shown once, grouped by stage");
    await page.goto(url);
    await page.locator('tr[data-status="succeeded"]').waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
    await run.kill();
  }
});

const ASK = `digraph ask {
  goal = "Ask for a name"
  start [shape=Mdiamond]
  ask [shape=hexagon, label="What should it be called?", freeform=true]
  record [shape=parallelogram, script="test -n \\"$BATON_CTX_ASK_ANSWER\\""]
  exit [shape=Msquare]
  start -> ask
  ask -> exit [label="Skip"]
  ask -> record [freeform=true]
  record -> exit
}
`;

test("a freeform gate takes the text typed on the page, with a comment, and the run goes the text's way", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-gate-text-");
  await mkdir(join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(repo, ".baton", "workflows", "ask.dot"), ASK);
  const script = await writeScript(repo, "stages.json", { stages: {} });
  const run = new Baton(repo, ["run", "--workflow", "ask", "--script", script], batonEnv());
  assert.equal(await run.exited, 4, `paused at its gate: ${run.output}`);
  const { server, url } = await startServe(repo, await freePort(), "web-gate-text-token-0123456789");
  await using browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await page.goto(`${url}#/runs/1`);
    const gate = page.locator("section.gate");
    await gate.waitFor();
    assert.deepEqual(await gate.locator(".gate-options button").allInnerTexts(), ["Skip", "Reject"]);
    await gate.getByLabel("Your answer").fill("<b>Greeter</b>");
    await gate.getByLabel("Comment").fill("short is better");
    await gate.getByRole("button", { name: "Send answer" }).click();
    await waitForRunEnd(page);
    await page.locator('.workflow-graph [data-node="record"][data-state="succeeded"]').waitFor();
    assert.match(await page.locator(".timeline .item-end").innerText(), /succeeded/);
    assert.match(await page.locator('.stage-group[data-stage="ask"]').innerText(), /answered "<b>Greeter<\/b>"/, "the answer is shown as text");

    const log = await readLog(repo, await onlyRunId(repo));
    const resolved = log.find((event) => event.type === "approval.resolved");
    assert.deepEqual({ ...resolved?.data, by: undefined }, { gate: "ask", text: "<b>Greeter</b>", approved: true, comment: "short is better", by: undefined, via: "web" });
    assert.deepEqual(log.filter((event) => event.type === "route.selected").map((event) => event.data["to"]), ["ask", "record", "exit"]);
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
    await run.kill();
  }
});

test("Reject on the page sends the run back its way back; the list and the tab say it waits for a person again", { skip: browserSkipReason() }, async () => {
  const repo = await makeProject("web-gate-reject-");
  await mkdir(join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(repo, ".baton", "workflows", "review.dot"), REVIEW);
  const script = await writeScript(repo, "stages.json", { stages: { plan: [{ write: { path: "PLAN.md", content: "1. ship\n" } }, { say: "The plan is written." }] } });
  const run = new Baton(repo, ["run", "--workflow", "review", "--script", script], batonEnv());
  assert.equal(await run.exited, 4, `paused at its gate: ${run.output}`);
  const { server, url } = await startServe(repo, await freePort(), "web-gate-reject-token-0123456789");
  await using browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = failOnPageErrors(page);
    await page.goto(url);
    const row = page.locator('tr[data-status="paused"][data-waiting="gate"]');
    await row.waitFor();
    assert.match(await row.innerText(), /waiting for you \(a gate\)/);
    assert.equal(await row.locator(".stage-cell").innerText(), "approve");
    assert.equal(await page.title(), "(1 waiting) Runs · Baton");
    await row.getByRole("link").first().click();
    await page.waitForURL(/#\/runs\/1$/);
    const gate = page.locator("section.gate");
    await gate.waitFor();
    assert.match(await page.title(), /^\(1 waiting\) Run 1 \(waiting for you\)/);
    await gate.getByRole("button", { name: "Reject" }).click();
    // Its way back (Revise): plan runs again, and the gate asks again at its second visit.
    await page.locator('.stage-group[data-stage="approve"][data-visit="2"]').waitFor();
    await page.locator("section.gate").waitFor();
    // Paused again: the resumed process has written its pause and left.
    await waitFor("the run to pause again", async () => (await readLog(repo, await onlyRunId(repo))).filter((event) => event.type === "run.paused").length === 2);
    const log = await readLog(repo, await onlyRunId(repo));
    const resolved = log.find((event) => event.type === "approval.resolved");
    assert.equal(resolved?.data["via"], "web");
    assert.match(await page.locator('.stage-group[data-stage="approve"][data-visit="1"]').innerText(), /via web/);
    assert.deepEqual(errors, []);
  } finally {
    await server.kill();
  }
});
