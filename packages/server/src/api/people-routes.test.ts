import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { AUTH, beginRun, finishedRun, makeProject, testApp } from "../testing/server-fixtures.ts";

const OPTIONS = [
  { id: "allow_once", kind: "allow_once", name: "Allow once" },
  { id: "allow_always", kind: "allow_always", name: "Always allow" },
  { id: "reject_once", kind: "reject_once", name: "Reject" },
];

async function fixture(t: { after: (fn: () => Promise<void>) => void }) {
  const project = await makeProject("server-people-");
  t.after(() => project.store.close());
  const { app } = testApp(project.store, project.root);
  const post = (path: string, body?: unknown) =>
    app.request(path, { method: "POST", headers: { ...AUTH, ...(body === undefined ? {} : { "content-type": "application/json" }) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const requests = async (runId: string) => {
    const dir = join(project.store.runDir(runId), "requests");
    const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => !name.startsWith("."));
    return Promise.all(names.sort().map(async (name) => JSON.parse(await readFile(join(dir, name), "utf8")) as Record<string, unknown>));
  };
  return { ...project, post, requests };
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

test("POST input leaves the text for the running run (202 with its id); a finished run is 409 and nothing is left; a bad body is 400", async (t) => {
  const { store, post, requests } = await fixture(t);
  const writer = await beginRun(store);
  t.after(() => writer.close());
  const response = await post(`/api/runs/${writer.number}/input`, { text: "Keep the API stable.", by: "ada" });
  assert.equal(response.status, 202);
  const { input } = (await response.json()) as { input: { id: string; by: string } };
  assert.match(input.id, /^in_[0-9a-f]{12}$/);
  const left = await requests(writer.runId);
  assert.deepEqual(left.map(({ id, by, text }) => ({ id, by, text })), [{ id: input.id, by: "ada", text: "Keep the API stable." }]);

  assert.equal((await post(`/api/runs/${writer.number}/input`, { text: "" })).status, 400);
  assert.equal((await post(`/api/runs/${writer.number}/input`, {})).status, 400);

  const done = await finishedRun(store, 1);
  const late = await post(`/api/runs/${done.number}/input`, { text: "too late" });
  assert.equal(late.status, 409);
  assert.equal((await errorOf(late)).code, "run_ended");
  assert.deepEqual(await requests(done.runId), []);
});

test("POST permissions/{call}/allow answers a question awaiting a person; a second answer is 409 answer_conflict; unknown calls and wrong options are refused", async (t) => {
  const { store, post, requests } = await fixture(t);
  const writer = await beginRun(store);
  t.after(() => writer.close());
  writer.append("permission.requested", { session: "ses_1", call: "call_1", tool: "execute", options: OPTIONS, awaiting: "person", rule: "ask-all", timeout_ms: 60_000 });
  writer.append("permission.requested", { session: "ses_1", call: "call_2", tool: "edit", options: OPTIONS });
  await writer.flush();
  const base = `/api/runs/${writer.number}/permissions`;

  const unknown = await post(`${base}/call_9/allow`);
  assert.equal(unknown.status, 404);
  assert.match((await errorOf(unknown)).message, /no permission question for call "call_9"/);
  assert.equal((await post(`${base}/call_2/deny`)).status, 404, "a request the policy answers waits for nobody");
  const wrong = await post(`${base}/call_1/allow`, { option_id: "reject_once" });
  assert.equal(wrong.status, 400);
  assert.equal((await post(`${base}/..%2Fx/allow`)).status, 400);

  const allowed = await post(`${base}/call_1/allow`, { always_for_run: true, by: "ada", via: "web" });
  assert.equal(allowed.status, 202);
  const second = await post(`${base}/call_1/deny`, { reason: "no", by: "bob" });
  assert.equal(second.status, 409);
  const conflict = await errorOf(second);
  assert.equal(conflict.code, "answer_conflict");
  assert.match(conflict.message, /answered already \(allow by ada\)/);
  const left = await requests(writer.runId);
  assert.deepEqual(left.map(({ call, action, who, via, alwaysForRun }) => ({ call, action, who, via, alwaysForRun })), [{ call: "call_1", action: "allow", who: "ada", via: "web", alwaysForRun: true }]);

  writer.append("permission.resolved", { session: "ses_1", call: "call_1", decision: "allow_always", option_id: "allow_always", by: "human", rule: "ask-all", who: "ada" });
  await writer.flush();
  const after = await post(`${base}/call_1/deny`);
  assert.equal(after.status, 409);
  assert.match((await errorOf(after)).message, /answered already \(allow_always by ada\)/);
});

test("POST questions/{id} answers the agent's question: content checked against the form (422 naming the field), the first reply wins (409), unknown and answered questions are refused", async (t) => {
  const { store, post, requests } = await fixture(t);
  const writer = await beginRun(store);
  t.after(() => writer.close());
  const fields = [
    { name: "db", type: "string", required: true, options: [{ value: "postgres" }, { value: "sqlite" }] },
    { name: "replicas", type: "integer", required: false, min: 1 },
  ];
  writer.append("question.asked", { session: "ses_1", id: "q_1", mode: "form", message: "Which database?", fields, awaiting: "person", timeout_ms: 60_000 });
  writer.append("question.asked", { session: "ses_1", id: "q_2", mode: "form", message: "Unattended", fields, });
  writer.append("question.answered", { session: "ses_1", id: "q_2", action: "decline", by: "policy", rule: "question:unattended" });
  await writer.flush();
  const base = `/api/runs/${writer.number}/questions`;

  const bad = await post(`${base}/q_1`, { content: { db: "oracle" } });
  assert.equal(bad.status, 422);
  assert.deepEqual(await errorOf(bad), { code: "invalid_answer", message: 'question q_1: field "db" must be one of postgres, sqlite, not "oracle"', hint: "the form takes db (one of postgres | sqlite)" } as never);
  assert.equal((await post(`${base}/q_1`, { content: { db: "sqlite", replicas: 0 } })).status, 422);
  assert.equal((await post(`${base}/q_1`, { content: { db: "sqlite", colour: "red" } })).status, 422);
  assert.equal((await post(`${base}/q_1`, { action: "maybe" })).status, 400);
  assert.equal((await post(`${base}/q_1`, { action: "decline", content: { db: "sqlite" } })).status, 400);
  assert.equal((await post(`${base}/..%2Fx`, {})).status, 400);
  const unknown = await post(`${base}/q_9`, { content: { db: "sqlite" } });
  assert.equal(unknown.status, 404);
  assert.equal((await errorOf(unknown)).code, "unknown_question");
  const answered = await post(`${base}/q_2`, { action: "decline" });
  assert.equal(answered.status, 409);
  assert.match((await errorOf(answered)).message, /answered already \(decline by the policy \(question:unattended\)\)/);
  assert.deepEqual(await requests(writer.runId), [], "nothing refused was left");

  const accepted = await post(`${base}/q_1`, { content: { db: "sqlite", replicas: 2 }, by: "ada", via: "web" });
  assert.equal(accepted.status, 202);
  assert.deepEqual(((await accepted.json()) as { reply: unknown }).reply, { question: "q_1", action: "accept", by: "ada" });
  const second = await post(`${base}/q_1`, { action: "decline", by: "bob" });
  assert.equal(second.status, 409);
  assert.match((await errorOf(second)).message, /answered already \(accept by ada\)/);
  const left = await requests(writer.runId);
  assert.deepEqual(left.map(({ question, action, content, who, via }) => ({ question, action, content, who, via })), [{ question: "q_1", action: "accept", content: { db: "sqlite", replicas: 2 }, who: "ada", via: "web" }]);
});
