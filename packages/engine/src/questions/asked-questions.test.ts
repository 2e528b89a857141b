import assert from "node:assert/strict";
import { test } from "node:test";
import { applyEvent, initialRunState, type Envelope } from "@baton/protocol/core";
import { askedLog, checkReply } from "./asked-questions.ts";

const FIELDS = [{ name: "db", type: "string", required: true, options: [{ value: "postgres" }, { value: "sqlite" }] }];

function logOf(events: Array<[string, Record<string, unknown>]>): Envelope[] {
  return events.map(([type, data], index) => ({ v: 1, run: "run_1", seq: index + 1, at: `2026-12-01T10:00:0${index}.000Z`, type, data }) as Envelope);
}

const events = logOf([
  ["run.created", { number: 4, task: "t", agent: "fake" }],
  ["run.started", {}],
  ["question.asked", { session: "s", id: "q_a", call: "toolu_1", mode: "form", message: "Which?", fields: FIELDS, awaiting: "person", timeout_ms: 1_000 }],
  ["question.asked", { session: "s", id: "q_b", mode: "form", message: "Which?", fields: FIELDS, awaiting: "person" }],
  ["question.answered", { session: "s", id: "q_b", action: "accept", content: { db: "sqlite" }, by: "human", who: "ada" }],
  ["question.asked", { session: "s", id: "q_c", mode: "form", message: "Which?", fields: FIELDS }],
  ["question.answered", { session: "s", id: "q_c", action: "decline", by: "policy", rule: "question:unattended" }],
]);
const running = initialRunState();
for (const event of events) applyEvent(running, event);

test("the log's questions: open ones awaiting a person with their form, and how each answered one was", () => {
  const log = askedLog(events);
  assert.deepEqual([...log.open.values()], [{ id: "q_a", session: "s", call: "toolu_1", message: "Which?", fields: FIELDS, timeoutMs: 1_000, seq: 3, at: "2026-12-01T10:00:02.000Z" }]);
  assert.deepEqual([...log.answered.keys()], ["q_b", "q_c"]);
});

test("a reply is checked against the run before it is left: running, waiting, filling the form; a decline drops content", () => {
  const log = askedLog(events);
  const base = { who: "bob", via: "cli" as const };
  assert.deepEqual(checkReply(running, log, { ...base, question: "q_a", action: "accept", content: { db: "postgres" } }).content, { db: "postgres" });
  assert.deepEqual(checkReply(running, log, { ...base, question: "q_a", action: "decline", content: { db: "x" } }), { ...base, question: "q_a", action: "decline" });
  assert.throws(() => checkReply(running, log, { ...base, question: "q_a", action: "accept", content: { db: "mysql" } }), { code: "invalid_answer", message: 'question q_a: field "db" must be one of postgres, sqlite, not "mysql"' });
  assert.throws(() => checkReply(running, log, { ...base, question: "q_a", action: "accept" }), { code: "invalid_answer", message: 'question q_a: field "db" is required' });
  assert.throws(() => checkReply(running, log, { ...base, question: "q_b", action: "decline" }), { code: "answer_conflict", message: "run 4: question q_b was answered already (accept by ada); this answer changed nothing" });
  assert.throws(() => checkReply(running, log, { ...base, question: "q_c", action: "decline" }), { code: "answer_conflict", message: /decline by the policy \(question:unattended\)/ });
  assert.throws(() => checkReply(running, log, { ...base, question: "q_z", action: "decline" }), { code: "unknown_question", message: 'run 4 has no question "q_z" waiting' });
  assert.throws(() => checkReply({ ...running, status: "succeeded" }, log, { ...base, question: "q_a", action: "decline" }), { code: "run_ended" });
});
