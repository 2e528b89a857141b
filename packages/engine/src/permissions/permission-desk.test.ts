import assert from "node:assert/strict";
import { test } from "node:test";
import { PermissionAsker } from "./permission-asker.ts";
import { ASK_ALWAYS_RULE, ASK_TIMEOUT_RULE, ASK_UNANSWERABLE_RULE, PermissionDesk } from "./permission-desk.ts";
import type { PermissionRule } from "./policy.ts";

const OPTIONS = [
  { optionId: "yes", kind: "allow_once" },
  { optionId: "always", kind: "allow_always" },
  { optionId: "no", kind: "reject_once" },
];
const RULES: PermissionRule[] = [{ name: "ask-run", action: "ask", kind: "execute" }];
const call = (id: string, command = "npm test") => ({ toolCallId: id, kind: "execute", rawInput: { command } });
const never = new Promise<void>(() => {});

function desk(timeoutMs?: number) {
  const asker = new PermissionAsker({ timeoutMs });
  return { asker, desk: new PermissionDesk({ rules: RULES, builtinRules: true, root: "/repo", asker }) };
}

test("a call no rule asks about is the policy's; one an ask rule matches is described as awaiting a person", () => {
  const { desk: d } = desk(5_000);
  assert.deepEqual(d.describe({ kind: "edit", rawInput: { path: "a.txt" } }), {});
  assert.deepEqual(d.describe(call("c1")), { awaiting: "person", rule: "ask-run", timeout_ms: 5_000 });
});

test("a person's allow picks the allow option and records who; a deny with a reason the reject option", async () => {
  const { asker, desk: d } = desk();
  const allowed = d.answer(call("c1"), OPTIONS, never);
  asker.receive({ call: "c1", action: "allow", who: "ada", via: "cli" });
  assert.deepEqual(await allowed, { optionId: "yes", decision: { rule: "ask-run", by: "human", who: "ada" } });
  // An answer that came before the question was put is kept for it.
  asker.receive({ call: "c2", action: "deny", who: "bob", via: "api", reason: "not now" });
  assert.deepEqual(await d.answer(call("c2"), OPTIONS, never), { optionId: "no", decision: { rule: "ask-run", by: "human", who: "bob", reason: "not now" } });
});

test("allow --always-for-run takes allow_always and answers the same question later without asking; another target still asks", async () => {
  const { asker, desk: d } = desk();
  const first = d.answer(call("c1"), OPTIONS, never);
  asker.receive({ call: "c1", action: "allow", who: "ada", via: "cli", alwaysForRun: true });
  assert.deepEqual(await first, { optionId: "always", decision: { rule: "ask-run", by: "human", who: "ada", alwaysForRun: true } });
  assert.deepEqual(d.describe(call("c2")), {});
  assert.deepEqual(await d.answer(call("c2"), OPTIONS, never), { optionId: "yes", decision: { rule: ASK_ALWAYS_RULE, by: "human", who: "ada" } });
  assert.equal(d.describe(call("c3", "rm -rf build"))["awaiting"], "person");
});

test("a chosen option is taken as it is; an unanswered question is denied at its timeout; a cancelled turn answers nothing", async () => {
  const { asker, desk: d } = desk(30);
  const chosen = d.answer(call("c1"), OPTIONS, never);
  asker.receive({ call: "c1", action: "allow", optionId: "always", who: "ada", via: "cli" });
  assert.equal((await chosen).optionId, "always");
  assert.deepEqual(await d.answer(call("c2"), OPTIONS, never), { optionId: "no", decision: { rule: ASK_TIMEOUT_RULE, by: "policy", reason: "nobody answered in time" } });
  assert.deepEqual(await d.answer(call("c3"), OPTIONS, Promise.resolve()), { optionId: undefined, decision: { rule: "ask-run", by: "policy" } });
});

test("with nobody to ask (no asker), an ask rule denies", async () => {
  const d = new PermissionDesk({ rules: RULES, builtinRules: true, root: "/repo" });
  assert.deepEqual(d.describe(call("c1")), {});
  assert.deepEqual(await d.answer(call("c1"), OPTIONS, never), { optionId: "no", decision: { rule: ASK_UNANSWERABLE_RULE, by: "policy" } });
});

test("decideNow answers what needs no person (a rule, no asker, a standing allow) and leaves a question for a person undecided", async () => {
  const { asker, desk: d } = desk();
  assert.deepEqual(d.decideNow({ toolCallId: "e1", kind: "edit", rawInput: { path: "a.txt" } }, OPTIONS), { optionId: "yes", decision: { rule: "default:allow", by: "policy" } });
  assert.equal(d.decideNow({ toolCallId: "e2", kind: "edit", rawInput: { path: "/elsewhere/a.txt" } }, OPTIONS)?.optionId, "no");
  assert.equal(d.decideNow(call("c1"), OPTIONS), undefined);
  const first = d.answer(call("c1"), OPTIONS, never);
  asker.receive({ call: "c1", action: "allow", who: "ada", via: "cli", alwaysForRun: true });
  await first;
  assert.deepEqual(d.decideNow(call("c2"), OPTIONS), { optionId: "yes", decision: { rule: ASK_ALWAYS_RULE, by: "human", who: "ada" } });
  const alone = new PermissionDesk({ rules: RULES, builtinRules: true, root: "/repo" });
  assert.deepEqual(alone.decideNow(call("c3"), OPTIONS), { optionId: "no", decision: { rule: ASK_UNANSWERABLE_RULE, by: "policy" } });
});
