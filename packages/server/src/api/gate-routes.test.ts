import assert from "node:assert/strict";
import { test } from "node:test";
import type { RunStore } from "@baton/engine/store";
import type { Envelope } from "@baton/protocol/core";
import { AUTH, beginRun, makeProject, testApp } from "../testing/server-fixtures.ts";

type Option = { label: string; to: string; key?: string };
const SHIP_OPTIONS: Option[] = [
  { label: "Approve", to: "exit", key: "A" },
  { label: "Revise", to: "plan", key: "R" },
];

/** A workflow run paused at gate `approve`, as `baton run --workflow` leaves it. */
async function pausedRun(store: RunStore, gate: { options: Option[]; freeform: boolean } = { options: SHIP_OPTIONS, freeform: false }) {
  const writer = await store.createRun({ task: "ship it", agent: "fake", repo: { root: "/tmp/fixture", dirty: false } });
  writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: "test" });
  writer.append("workflow.loaded", {
    name: "review",
    nodes: [
      { id: "start", handler: "start" },
      { id: "plan", handler: "agent" },
      { id: "approve", label: "Ship it?", handler: "human" },
      { id: "exit", handler: "exit" },
    ],
    edges: [{ from: "start", to: "plan" }, { from: "plan", to: "approve" }, ...gate.options.map((option) => ({ from: "approve", to: option.to, label: option.label }))],
  });
  const scope = { id: "approve", visit: 1 };
  writer.append("stage.started", { stage: "approve", label: "Ship it?", handler: "human", visit: 1, attempt: 1, max_attempts: 1 }, scope);
  writer.append("approval.requested", { gate: "approve", question: "Ship it?", options: gate.options, freeform: gate.freeform }, scope);
  writer.append("run.paused", { reason: "approval", gate: "approve" });
  await writer.close();
  return { runId: writer.runId, number: writer.number };
}

async function fixture(t: { after: (fn: () => Promise<void>) => void }) {
  const project = await makeProject("server-gates-");
  t.after(() => project.store.close());
  const { app } = testApp(project.store, project.root);
  const post = (path: string, body?: unknown, type = "application/json") =>
    app.request(path, { method: "POST", headers: { ...AUTH, ...(body === undefined ? {} : { "content-type": type }) }, ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }) });
  const events = async (runId: string) => {
    const all: Envelope[] = [];
    for await (const event of project.store.readRun(runId)) all.push(event);
    return all;
  };
  return { ...project, app, post, events };
}

async function errorOf(response: Response): Promise<{ code: string; message: string; hint?: string }> {
  return ((await response.json()) as { error: { code: string; message: string; hint?: string } }).error;
}

/** The arguments the server gave the `baton` child (the stand-in logs them). */
async function childArgs(events: readonly Envelope[]): Promise<string[]> {
  const log = events.find((event) => event.type === "log" && String(event.data["message"]).startsWith("["));
  assert.ok(log !== undefined, "the child ran and logged its arguments");
  return JSON.parse(String(log.data["message"])) as string[];
}

test("POST approve records the decision through the CLI, detached (202 with the run), with the surface and the comment", async (t) => {
  const { post, store, events } = await fixture(t);
  const run = await pausedRun(store);
  const response = await post(`/api/runs/${run.number}/approve`, { comment: "-looks right", via: "web" });
  assert.equal(response.status, 202, await response.clone().text());
  const body = (await response.json()) as { run: { id: string; number: number } };
  assert.equal(body.run.id, run.runId);
  const log = await events(run.runId);
  assert.deepEqual(log.find((event) => event.type === "run.started" && event.data["resumed"] === true)?.data["attempt"], 2, "the child reopened the same run");
  assert.deepEqual(await childArgs(log), ["approve", "--json", "--via=web", "--comment=-looks right", "--", run.runId]);
});

test("POST reject takes no body; POST answer passes the answer after --, and by when the client names one", async (t) => {
  const { post, store, events } = await fixture(t);
  const rejected = await pausedRun(store);
  assert.equal((await post(`/api/runs/${rejected.runId}/reject`)).status, 202);
  assert.deepEqual(await childArgs(await events(rejected.runId)), ["reject", "--json", "--via=api", "--", rejected.runId]);
  const answered = await pausedRun(store);
  const response = await post(`/api/runs/${answered.number}/answer`, { answer: "r", by: "Ada" });
  assert.equal(response.status, 202, await response.clone().text());
  assert.deepEqual(await childArgs(await events(answered.runId)), ["answer", "--json", "--via=api", "--by=Ada", "--", answered.runId, "r"]);
});

test("free text is an answer at a freeform gate", async (t) => {
  const { post, store } = await fixture(t);
  const run = await pausedRun(store, { options: [{ label: "Go", to: "exit" }], freeform: true });
  assert.equal((await post(`/api/runs/${run.number}/answer`, { answer: "use the second plan" })).status, 202);
});

test("a run that is not paused at a gate is refused (409 not_paused) and its log is left as it was", async (t) => {
  const { post, store, events } = await fixture(t);
  const running = await beginRun(store, "plain run");
  t.after(() => running.close());
  const before = await events(running.runId);
  for (const kind of ["approve", "reject"]) {
    const response = await post(`/api/runs/${running.number}/${kind}`);
    assert.equal(response.status, 409, kind);
    const error = await errorOf(response);
    assert.equal(error.code, "not_paused");
    assert.match(error.message, /run \d+ is running, not waiting at a gate/);
  }
  assert.equal((await post(`/api/runs/${running.number}/answer`, { answer: "Approve" })).status, 409);
  assert.deepEqual(await events(running.runId), before, "nothing was written");

  const done = await pausedRun(store);
  assert.equal((await post(`/api/runs/${done.number}/approve`)).status, 202);
  const after = await events(done.runId);
  const again = await post(`/api/runs/${done.number}/approve`);
  assert.equal(again.status, 409);
  assert.match((await errorOf(again)).message, /is succeeded, not waiting at a gate/);
  assert.deepEqual(await events(done.runId), after, "nothing was written");
});

test("an answer that fits no option is refused (422 invalid_answer, naming the options) and nothing is started", async (t) => {
  const { post, store, events } = await fixture(t);
  const run = await pausedRun(store);
  const before = await events(run.runId);
  const response = await post(`/api/runs/${run.number}/answer`, { answer: "Maybe" });
  assert.equal(response.status, 422);
  const error = await errorOf(response);
  assert.equal(error.code, "invalid_answer");
  assert.match(error.message, /"Maybe" is not an option of this gate/);
  assert.match(error.hint ?? "", /Approve \(A\), Revise \(R\)/);
  assert.deepEqual(await events(run.runId), before, "nothing was written");
  assert.equal((await store.getRun(run.runId))?.status, "paused");
});

test("an unknown run is 404; bad bodies are 400 or 415, before anything is looked at", async (t) => {
  const { post, store, events } = await fixture(t);
  for (const kind of ["approve", "reject", "answer"]) {
    const response = await post(`/api/runs/99/${kind}`, kind === "answer" ? { answer: "Approve" } : undefined);
    assert.equal(response.status, 404, kind);
    assert.equal((await errorOf(response)).code, "run_not_found");
  }
  const run = await pausedRun(store);
  const before = await events(run.runId);
  const bad: Array<[string, unknown]> = [
    ["answer", undefined],
    ["answer", {}],
    ["answer", { answer: "" }],
    ["answer", { answer: 3 }],
    ["approve", "{"],
    ["approve", []],
    ["approve", { comment: 5 }],
    ["approve", { via: "cli" }],
    ["reject", { by: "" }],
    ["reject", { comment: "x".repeat(20_000) }],
  ];
  for (const [kind, body] of bad) {
    const response = await post(`/api/runs/${run.number}/${kind}`, body);
    assert.equal(response.status, kind === "answer" && body === undefined ? 415 : 400, `${kind} ${JSON.stringify(body)}`);
  }
  assert.equal((await post(`/api/runs/${run.number}/approve`, "comment=x", "text/plain")).status, 415);
  assert.deepEqual(await events(run.runId), before, "nothing was written");
});

test("the CLI's refusal of the resume is 422 resume_rejected with its one line", async (t) => {
  const { post, store } = await fixture(t);
  const run = await pausedRun(store);
  const response = await post(`/api/runs/${run.number}/approve`, { comment: "fail: run 1 is being written by pid 7" });
  assert.equal(response.status, 422);
  assert.deepEqual(await errorOf(response), { code: "resume_rejected", message: "run 1 is being written by pid 7: fix it" });
});

test("POST /api/runs takes a workflow name (never a path) and auto_approve", async (t) => {
  const { post, store } = await fixture(t);
  const created = await post("/api/runs", { task: "ship", agent: "fake", workflow: "review", auto_approve: true });
  assert.equal(created.status, 201, await created.clone().text());
  const { run } = (await created.json()) as { run: { id: string } };
  // The 201 comes once the child has created the run; its arguments are logged after: follow the log to them.
  const log: Envelope[] = [];
  for await (const event of store.followRun(run.id, { signal: AbortSignal.timeout(30_000) })) {
    log.push(event);
    if (event.type === "log" && String(event.data["message"]).startsWith("[")) break;
  }
  assert.deepEqual(await childArgs(log), ["run", "--agent", "fake", "--json", "--workflow", "review", "--auto-approve", "--", "ship"]);
  const goal = await post("/api/runs", { agent: "fake", workflow: "single" });
  assert.equal(goal.status, 201, "with a workflow, the task may come from its goal");
  for (const body of [
    { task: "x", agent: "fake", workflow: "../../etc/review" },
    { task: "x", agent: "fake", workflow: "/tmp/review.dot" },
    { task: "x", agent: "fake", workflow: "review.dot" },
    { task: "x", agent: "fake", workflow: "review.fabro" },
    { task: "x", agent: "fake", workflow: ".hidden" },
    { task: "x", agent: "fake", workflow: "" },
    { task: "x", agent: "fake", workflow: 1 },
    { task: "x", agent: "fake", workflow: "review", auto_approve: "yes" },
    { task: "x", agent: "fake", auto_approve: true },
    { agent: "fake" },
  ]) {
    const response = await post("/api/runs", body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal((await errorOf(response)).code, "bad_request");
  }
});
