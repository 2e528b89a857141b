import assert from "node:assert/strict";
import { test } from "node:test";
import type { OpenQuestion } from "@baton/engine/input";
import { oldestQuestion, parseAttachLine } from "./attach-lines.ts";

const question = (call: string): OpenQuestion => ({ call, session: "s", tool: "execute", options: [], at: "2026-01-01T00:00:00.000Z" });
const open = new Map([
  ["call_1", question("call_1")],
  ["call_2", question("call_2")],
]);

test("a plain line steers; a blank one is nothing", () => {
  assert.deepEqual(parseAttachLine("  use tabs  ", open), { kind: "steer", text: "use tabs" });
  assert.equal(parseAttachLine("   ", open), undefined);
});

test("permission answers name a waiting call or none (the oldest), an option, a reason", () => {
  assert.deepEqual(parseAttachLine("/allow", open), { kind: "permission", action: "allow" });
  assert.deepEqual(parseAttachLine("/allow call_2 --option allow_always", open), { kind: "permission", action: "allow", call: "call_2", optionId: "allow_always" });
  assert.deepEqual(parseAttachLine("/always", open), { kind: "permission", action: "allow", alwaysForRun: true });
  assert.deepEqual(parseAttachLine("/deny call_1 too risky", open), { kind: "permission", action: "deny", call: "call_1", reason: "too risky" });
  assert.deepEqual(parseAttachLine("/deny not a call id", open), { kind: "permission", action: "deny", reason: "not a call id" });
  assert.equal(oldestQuestion(open)?.call, "call_1");
  assert.equal(oldestQuestion(new Map()), undefined);
});

test("gate answers, cancel, detach, help and unknown commands", () => {
  assert.deepEqual(parseAttachLine("/approve looks good", open), { kind: "gate", decision: "approve", comment: "looks good" });
  assert.deepEqual(parseAttachLine("/reject", open), { kind: "gate", decision: "reject" });
  assert.deepEqual(parseAttachLine("/answer Revise", open), { kind: "gate", decision: "answer", value: "Revise" });
  assert.deepEqual(parseAttachLine("/cancel", open), { kind: "cancel" });
  assert.deepEqual(parseAttachLine("/detach", open), { kind: "detach" });
  assert.deepEqual(parseAttachLine("/help", open), { kind: "help" });
  assert.deepEqual(parseAttachLine("/frobnicate", open), { kind: "unknown", word: "frobnicate" });
});

test("a reply to the agent's question: /reply with FIELD=VALUE pairs, /decline with a reason", () => {
  assert.deepEqual(parseAttachLine("/reply db=sqlite notes=keep it small", open), { kind: "reply", action: "accept", text: "db=sqlite notes=keep it small" });
  assert.deepEqual(parseAttachLine("/decline not now", open), { kind: "reply", action: "decline", text: "not now" });
  assert.deepEqual(parseAttachLine("/decline", open), { kind: "reply", action: "decline", text: "" });
});
