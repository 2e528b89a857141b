import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { foldRun, isFinalType, openStages, type Envelope } from "@baton/protocol/core";
import { SseReader } from "@baton/server/testing";
import { cliEnv, eventsOfType, makeRepo, readEvents, servedAt, startBaton } from "./cli-harness.ts";

const REVIEW = `digraph review {
  goal = "Write the plan and ship it"
  start [shape=Mdiamond]
  plan [label="Plan", prompt="Write PLAN.md for: {{ goal }}"]
  approve [shape=hexagon, label="Ship the plan?"]
  exit [shape=Msquare]
  start -> plan -> approve
  approve -> exit [label="[A] Approve"]
  approve -> plan [label="[R] Revise"]
}
`;

test("a workflow run started through the API pauses at its gate; POST approve records the decision (via api) and its stream follows the resumed run to its end", async () => {
  const repo = await makeRepo("cli-serve-gate-");
  await mkdir(join(repo, ".baton", "workflows"), { recursive: true });
  await writeFile(join(repo, ".baton", "workflows", "review.dot"), REVIEW);
  const served = startBaton(repo, ["serve", "--port", "0"], { env: cliEnv() });
  try {
    const { base, auth } = await servedAt(served);
    const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify(body) });

    const started = await post("/api/runs", {
      agent: "fake",
      workflow: "review",
      script: { stages: { plan: [{ write: { path: "PLAN.md", content: "1. ship\n" } }, { say: "Planned." }] } },
      timeout: "5m",
    });
    assert.equal(started.status, 201, await started.clone().text());
    const { run } = (await started.json()) as { run: { id: string; number: number } };
    const stream = await SseReader.open(`${base}/api/runs/${run.id}/stream`, auth);
    const types = () => stream.events<Envelope>().map((event) => event.type);
    await stream.waitFor("run.paused", () => types().includes("run.paused"));
    assert.equal((await (await fetch(`${base}/api/runs/${run.number}`, { headers: auth })).json() as { run: { status: string } }).run.status, "paused");

    const paused = await readEvents(repo, run.id);
    const wrong = await post(`/api/runs/${run.number}/answer`, { answer: "Maybe" });
    assert.equal(wrong.status, 422);
    assert.equal(((await wrong.json()) as { error: { code: string } }).error.code, "invalid_answer");
    assert.deepEqual(await readEvents(repo, run.id), paused, "a wrong answer changes nothing");

    const approved = await post(`/api/runs/${run.number}/approve`, { comment: "ship it" });
    assert.equal(approved.status, 202, await approved.clone().text());
    await stream.ended;
    assert.equal(types().at(-1), "run.completed", "the same stream followed the resumed run to its end");

    const events = await readEvents(repo, run.id);
    assert.deepEqual(stream.events().map((event) => event.__id), events.map((event) => event.seq));
    const resolved = eventsOfType(events, "approval.resolved");
    assert.equal(resolved.length, 1);
    assert.deepEqual({ ...resolved[0]?.data, by: typeof resolved[0]?.data["by"] }, { gate: "approve", choice: "Approve", approved: true, comment: "ship it", by: "string", via: "api" });
    assert.deepEqual(eventsOfType(events, "run.started").map((event) => event.data["resumed"]), [false, true]);
    const state = foldRun(events);
    assert.equal(state.status, "succeeded");
    assert.deepEqual(openStages(state.workflow), [], "every stage.started is closed");
    assert.equal(events.filter((event) => event.type === "run.paused" || isFinalType(event.type)).length, 2, "one terminal event per run.started");

    const again = await post(`/api/runs/${run.number}/approve`, {});
    assert.equal(again.status, 409);
    assert.equal(((await again.json()) as { error: { code: string } }).error.code, "not_paused");
    assert.equal((await readEvents(repo, run.id)).length, events.length);
  } finally {
    served.child.kill("SIGTERM");
    await served.done;
  }
});
