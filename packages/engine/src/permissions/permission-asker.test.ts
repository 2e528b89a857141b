import assert from "node:assert/strict";
import { test } from "node:test";
import { PermissionAsker } from "./permission-asker.ts";
import type { PersonAnswer } from "./person-answer.ts";

const question = { kind: "execute", target: "npm test" };
const answer = (who: string, action: "allow" | "deny" = "allow"): PersonAnswer => ({ call: "call_1", action, who, via: "cli" });
const never = new Promise<void>(() => {});

test("an answer ends its question, which then says it settled; a second answer for it is late and changes nothing", async () => {
  const settled: string[] = [];
  const asker = new PermissionAsker({ onSettled: (call) => settled.push(call) });
  const asked = asker.ask("call_1", question, never);
  assert.equal(asker.receive(answer("ada")), "taken");
  assert.deepEqual(await asked, { kind: "answered", answer: answer("ada") });
  assert.deepEqual(settled, ["call_1"]);
  assert.equal(asker.receive(answer("bob", "deny")), "late");
});

test("a later question of the same call id (another stage's session) waits for its own answer, not the earlier one's", async () => {
  const asker = new PermissionAsker({ timeoutMs: 60_000 });
  const first = asker.ask("call_1", question, never);
  asker.receive(answer("ada"));
  await first;
  assert.equal(asker.receive(answer("late", "deny")), "late");
  const second = asker.ask("call_1", question, never);
  assert.equal(asker.receive(answer("bob", "deny")), "taken");
  assert.deepEqual(await second, { kind: "answered", answer: answer("bob", "deny") });
});

test("an answer that comes before its question is kept for it; a question ended by a timeout or a cancel settles too", async () => {
  const settled: string[] = [];
  const asker = new PermissionAsker({ timeoutMs: 1, onSettled: (call) => settled.push(call) });
  assert.equal(asker.receive({ ...answer("ada"), call: "call_9" }), "kept");
  assert.deepEqual(await asker.ask("call_9", question, never), { kind: "answered", answer: { ...answer("ada"), call: "call_9" } });
  assert.deepEqual(await asker.ask("call_2", question, never), { kind: "timeout", timeoutMs: 1 });
  assert.deepEqual(await new PermissionAsker({ onSettled: (call) => settled.push(call) }).ask("call_3", question, Promise.resolve()), { kind: "cancelled" });
  assert.deepEqual(settled, ["call_9", "call_2", "call_3"]);
});
