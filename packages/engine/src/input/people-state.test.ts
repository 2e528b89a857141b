import assert from "node:assert/strict";
import { test } from "node:test";
import { initialRunState, type Envelope } from "@baton/protocol/core";
import { checkPersonAnswer, questionLog } from "./people-state.ts";

const OPTIONS = [
  { id: "yes", kind: "allow_once", name: "Yes" },
  { id: "no", kind: "reject_once", name: "No" },
];
let seq = 0;
const event = (type: string, data: Record<string, unknown>): Envelope => ({ v: 1, run: "run_1", seq: ++seq, at: "2026-01-01T00:00:00.000Z", type, data }) as Envelope;
const running = { ...initialRunState(), status: "running" as const, number: 4 };

test("open questions are the requests awaiting a person that have no resolution", () => {
  const log = questionLog([
    event("permission.requested", { session: "s", call: "a", tool: "execute", options: OPTIONS, awaiting: "person", rule: "ask", timeout_ms: 1000 }),
    event("permission.requested", { session: "s", call: "b", tool: "edit", options: OPTIONS }),
    event("permission.requested", { session: "s", call: "c", tool: "execute", options: OPTIONS, awaiting: "person" }),
    event("permission.resolved", { session: "s", call: "c", decision: "reject_once", by: "policy", rule: "ask:timeout" }),
  ]);
  assert.deepEqual([...log.open.keys()], ["a"]);
  assert.equal(log.open.get("a")?.timeoutMs, 1000);
  assert.deepEqual([...log.resolved.keys()], ["c"]);
});

test("an answer must meet a running run, an open question and an offered option of its kind", () => {
  const log = questionLog([
    event("permission.requested", { session: "s", call: "a", tool: "execute", options: OPTIONS, awaiting: "person" }),
    event("permission.requested", { session: "s", call: "c", tool: "execute", options: OPTIONS, awaiting: "person" }),
    event("permission.resolved", { session: "s", call: "c", decision: "allow_once", by: "human", who: "ada", rule: "ask" }),
  ]);
  assert.equal(checkPersonAnswer(running, log, { call: "a", action: "allow" }).call, "a");
  assert.equal(checkPersonAnswer(running, log, { call: "a", action: "deny", optionId: "no" }).call, "a");
  assert.throws(() => checkPersonAnswer({ ...running, status: "succeeded" }, log, { call: "a", action: "allow" }), { code: "run_ended" });
  assert.throws(() => checkPersonAnswer(running, log, { call: "z", action: "allow" }), { code: "unknown_call", message: 'run 4 has no permission question for call "z"' });
  assert.throws(() => checkPersonAnswer(running, log, { call: "c", action: "deny" }), { code: "answer_conflict", message: /answered already \(allow_once by ada\)/ });
  assert.throws(() => checkPersonAnswer(running, log, { call: "a", action: "allow", optionId: "no" }), { code: "usage", message: /"no" is not an option to allow call a/ });
});
