import assert from "node:assert/strict";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { QuestionDesk } from "../questions/question-desk.ts";
import { leaveReply, readReply } from "../questions/question-reply.ts";
import { openPeopleChannel } from "./people-channel.ts";

test("a reply left for the agent's question is routed to it; one that does not fit the form is removed so a good one can be left; the taken one is removed", async () => {
  const dir = await testTempDir("people-questions-");
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const sink = { append: (type: string, data: Record<string, unknown>) => void events.push({ type, data }), redactText: (text: string) => text };
  const people = await openPeopleChannel(dir, sink, { askTimeoutMs: 30_000 });
  try {
    const desk = new QuestionDesk({ sink, asker: people.questions, newId: () => "q_1" });
    const schema = { properties: { db: { type: "string", enum: ["postgres", "sqlite"] } }, required: ["db"] };
    const answer = desk.answer("s", { mode: "form", message: "Which?", requestedSchema: schema }, new Promise(() => {}));
    // Left by hand, past Baton's checks: the run's process checks it again.
    assert.equal(await leaveReply(dir, { question: "q_1", action: "accept", content: { db: "oracle" }, who: "mallory", via: "cli" }), "written");
    await waitUntil(async () => (await readReply(dir, "q_1")) === undefined);
    assert.equal(await leaveReply(dir, { question: "q_1", action: "accept", content: { db: "sqlite" }, who: "ada", via: "cli" }), "written");
    assert.deepEqual(await answer, { action: "accept", content: { db: "sqlite" } });
    assert.equal(events.at(-1)?.data["who"], "ada");
    await waitUntil(async () => (await readReply(dir, "q_1")) === undefined);
  } finally {
    people.close({ silently: true });
  }
});

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("not in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
