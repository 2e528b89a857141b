import assert from "node:assert/strict";
import { test } from "node:test";
import { QuestionAsker } from "./question-asker.ts";
import { QuestionDesk } from "./question-desk.ts";
import type { PersonReply } from "./question-reply.ts";

const FORM = { mode: "form", message: "Which database?", toolCallId: "toolu_1", requestedSchema: { properties: { db: { type: "string", enum: ["postgres", "sqlite"] } }, required: ["db"] } };
const NEVER = new Promise<never>(() => {});

function desk(asker?: QuestionAsker) {
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  let n = 0;
  const redact = (text: string) => text.replaceAll("sk-secret", "[REDACTED]");
  const questions = new QuestionDesk({ sink: { append: (type, data) => void events.push({ type, data }) }, asker, newId: () => `q_${++n}`, redact });
  return { questions, events };
}

const reply = (fields: Partial<PersonReply>): PersonReply => ({ question: "q_1", action: "accept", who: "ada", via: "cli", ...fields });

test("a question waits for a person: the reply that fills the form is the agent's answer, recorded by human, who and via", async () => {
  const asker = new QuestionAsker({ timeoutMs: 60_000 });
  const { questions, events } = desk(asker);
  assert.equal(questions.takesForms, true);
  const answer = questions.answer("ses_1", FORM, NEVER);
  assert.deepEqual(events, [
    { type: "question.asked", data: { session: "ses_1", id: "q_1", call: "toolu_1", mode: "form", message: "Which database?", fields: [{ name: "db", type: "string", required: true, options: [{ value: "postgres" }, { value: "sqlite" }] }], awaiting: "person", timeout_ms: 60_000 } },
  ]);
  await Promise.resolve();
  assert.equal(asker.receive(reply({ content: { db: "oracle" } })), "refused", "a reply that does not fit the form is refused; the question waits on");
  assert.equal(asker.receive(reply({ content: { db: "sqlite" } })), "taken");
  assert.deepEqual(await answer, { action: "accept", content: { db: "sqlite" } });
  assert.deepEqual(events[1], { type: "question.answered", data: { session: "ses_1", id: "q_1", call: "toolu_1", action: "accept", content: { db: "sqlite" }, by: "human", who: "ada", via: "cli" } });
  assert.equal(asker.receive(reply({ action: "decline", who: "bob" })), "late", "a second reply changes nothing");
  assert.equal(events.length, 2);
});

test("the text a person gives is redacted before the agent gets it, as steering text is", async () => {
  const asker = new QuestionAsker({});
  const { questions, events } = desk(asker);
  const form = { mode: "form", message: "Key?", requestedSchema: { properties: { key: { type: "string" }, tags: { type: "array", items: { enum: ["a", "sk-secret"] } }, n: { type: "number" } } } };
  const answer = questions.answer("ses_1", form, NEVER);
  assert.equal(asker.receive(reply({ content: { key: "use sk-secret here", tags: ["sk-secret"], n: 2 } })), "taken");
  assert.deepEqual(await answer, { action: "accept", content: { key: "use [REDACTED] here", tags: ["[REDACTED]"], n: 2 } });
  assert.deepEqual(events[1]?.data["content"], { key: "use [REDACTED] here", tags: ["[REDACTED]"], n: 2 });
});

test("a decline or cancel from a person is passed on with its reason; a reply left before the question was put is kept for it", async () => {
  const asker = new QuestionAsker({});
  const { questions, events } = desk(asker);
  assert.equal(asker.receive(reply({ action: "decline", reason: "not now" })), "kept");
  assert.deepEqual(await questions.answer("ses_1", FORM, NEVER), { action: "decline" });
  assert.deepEqual(events[1]?.data, { session: "ses_1", id: "q_1", call: "toolu_1", action: "decline", by: "human", who: "ada", via: "cli", reason: "not now" });
  assert.equal(events[0]?.data["timeout_ms"], undefined, "no timeout: as long as it takes");
});

test("fail closed: unanswered in time is declined, a cancelled turn or a withdrawn question is cancelled, and every question asked is answered once", async () => {
  const { questions, events } = desk(new QuestionAsker({ timeoutMs: 20 }));
  assert.deepEqual(await questions.answer("ses_1", FORM, NEVER), { action: "decline" });
  assert.deepEqual(events.at(-1)?.data, { session: "ses_1", id: "q_1", call: "toolu_1", action: "decline", by: "policy", rule: "question:timeout", reason: "nobody answered in time" });

  const withdraw = Promise.withResolvers<{ rule: string; reason: string }>();
  const waiting = questions.answer("ses_1", FORM, withdraw.promise);
  const settled = questions.settled();
  withdraw.resolve({ rule: "question:withdrawn", reason: "the agent withdrew the question" });
  await settled;
  assert.deepEqual(await waiting, { action: "cancel" });
  assert.deepEqual(events.at(-1)?.data, { session: "ses_1", id: "q_2", call: "toolu_1", action: "cancel", by: "policy", rule: "question:withdrawn", reason: "the agent withdrew the question" });

  assert.deepEqual(await questions.answer("ses_1", FORM, "now"), { action: "cancel" });
  assert.deepEqual(events.at(-1)?.data, { session: "ses_1", id: "q_3", call: "toolu_1", action: "cancel", by: "policy", rule: "question:turn-cancelled", reason: "the turn was cancelled" });
  const asked = events.filter((event) => event.type === "question.asked").map((event) => event.data["id"]);
  const answered = events.filter((event) => event.type === "question.answered").map((event) => event.data["id"]);
  assert.deepEqual(answered, asked);
});

test("declined at once, and recorded so: an unattended run, no person to ask, a URL question, a form Baton cannot fill", async () => {
  const cases: Array<[QuestionAsker | undefined, Parameters<QuestionDesk["answer"]>[1], string, RegExp]> = [
    [new QuestionAsker({ unattended: true, timeoutMs: 1_000 }), FORM, "question:unattended", /the run is unattended/],
    [undefined, FORM, "question:no-person", /no person can answer/],
    [new QuestionAsker({}), { mode: "url", message: "Sign in" }, "question:unsupported", /not url ones/],
    [new QuestionAsker({}), { mode: "form", message: "Pick", requestedSchema: { properties: { c: { type: "_colour" } }, required: ["c"] } }, "question:unsupported", /field c is of type _colour/],
  ];
  for (const [asker, request, rule, reason] of cases) {
    const { questions, events } = desk(asker);
    assert.equal(questions.takesForms, asker !== undefined && !asker.unattended, `${rule}: forms advertised only where a person can answer`);
    assert.deepEqual(await questions.answer("ses_1", request, NEVER), { action: "decline" });
    assert.deepEqual(events.map((event) => event.type), ["question.asked", "question.answered"], rule);
    assert.equal(events[0]?.data["awaiting"], undefined, `${rule}: awaits nobody`);
    assert.equal(events[1]?.data["rule"], rule);
    assert.equal(events[1]?.data["by"], "policy");
    assert.match(String(events[1]?.data["reason"]), reason);
  }
});
