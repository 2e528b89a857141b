import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { stripVTControlCharacters } from "node:util";
import type { Envelope } from "@baton/protocol";
import { definedFields, type StageScope } from "@baton/protocol/core";
import { SAMPLE_AT, SAMPLE_DATA, SAMPLE_RUN_ID } from "@baton/protocol/testing";
import { ProgressRenderer } from "./progress.ts";

let seq = 0;
const ev = (type: string, data: Record<string, unknown>, stage?: StageScope): Envelope =>
  definedFields({ v: 1, run: SAMPLE_RUN_ID, seq: (seq += 1), at: SAMPLE_AT, type, stage, data }) as Envelope;
const sample = (type: keyof typeof SAMPLE_DATA, stage?: StageScope, change: Record<string, unknown> = {}) => ev(type, { ...SAMPLE_DATA[type], ...change }, stage);

/** What the live view writes for `events`, raw (colours included) and as lines without colours. */
function render(events: Envelope[], options: { run?: number } = {}): { raw: string; lines: string[] } {
  let raw = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const renderer = new ProgressRenderer(stream, options);
  for (const event of events) renderer.render(event);
  return { raw, lines: stripVTControlCharacters(raw).split("\n").slice(0, -1) };
}

const plan = { id: "plan", visit: 1 };
const check = { id: "check", visit: 2 };

test("a workflow run's lines name their stage: stage starts and ends, the agent's work, routes, checkpoints, context keys", () => {
  const { lines } = render([
    sample("run.created", undefined, { workflow: "review" }),
    sample("workflow.loaded", undefined, { name: "review", file: undefined }),
    sample("stage.started", plan),
    ev("agent.delta", { session: "ses_1", kind: "text", text: "Writing the plan\nnow" }, plan),
    ev("agent.message", { session: "ses_1", text: "Writing the plan\nnow" }, plan),
    sample("tool.started", plan, { kind: "edit", title: "Write PLAN.md" }),
    sample("tool.completed", plan, { status: "completed", duration_ms: 19, exit_code: undefined }),
    sample("git.committed", plan, { message: "plan: Fix it", files: [{ path: "PLAN.md", change: "added" }] }),
    sample("stage.completed", plan),
    sample("context.updated", plan),
    sample("route.selected", plan, { from: "plan", to: "approve", reason: "unconditional", label: undefined, condition: undefined }),
    sample("checkpoint.saved", plan),
    sample("stage.started", check, { stage: "check", label: undefined, handler: "command", visit: 2, agent: undefined, model: undefined }),
    sample("stage.failed", check, { exit_code: 1, usage: undefined, will_retry: true }),
    sample("stage.retrying", check),
    sample("route.selected", check),
    sample("checkpoint.saved", check, { commit: undefined }),
  ]);
  assert.deepEqual(lines.slice(3), [
    "  workflow: review · 4 stages",
    '[plan] ▸ agent stage "Plan" · attempt 1/3 · fake (twin-1)',
    "[plan] Writing the plan",
    "[plan] now",
    "[plan] ⚙ edit Write PLAN.md",
    "[plan]   ✓ completed · 19 ms",
    "[plan] ● committed 89abcdef on baton/7-fix-the-flaky-date-test · 1 file · plan: Fix it",
    "[plan] ✓ succeeded · 5.4 s · 1,200 in / 340 out tokens · the agent ended its turn",
    "[plan] context: command.exit_code; removed plan_file",
    "[plan] → approve",
    "[plan] ◆ checkpoint 89abcdef",
    "[check] ▸ command stage · visit 2 · attempt 1/3",
    "[check] ✗ failed (command_failed): npm test exited with code 1 · exit 1 · 1.3 s · will retry",
    "[check] ↻ attempt 2/3 in 2.0 s",
    "[check] → fix (if outcome=failed)",
    "[check] ◆ checkpoint (nothing changed)",
  ]);
});

test("a gate shows its question, its options and the commands that answer it; its answer and the pause are one line each", () => {
  const gate = { id: "approve", visit: 1 };
  const { lines } = render(
    [
      sample("stage.started", gate, { stage: "approve", label: "Approve the plan", handler: "human", max_attempts: 1, agent: undefined, model: undefined }),
      sample("approval.requested", gate),
      ev("run.paused", { reason: "gate", gate: "approve" }),
      ev("run.started", { attempt: 2, resumed: true, pid: 1, host: "h" }),
      sample("approval.resolved", gate),
      sample("approval.resolved", gate, { choice: "Revise", approved: false, comment: undefined, text: undefined, by: "bob", via: "web" }),
      sample("approval.requested", gate, { options: [], freeform: true, question: "Which release?" }),
    ],
    { run: 7 },
  );
  assert.deepEqual(lines, [
    '[approve] ▸ human stage "Approve the plan"',
    "[approve] ? Approve the plan",
    "[approve]   options: Approve (A) · Revise (R)",
    "[approve]   answer: baton approve 7 · baton reject 7 · baton answer 7 CHOICE",
    "⏸ paused at gate approve",
    "▶ run 7 resumed · attempt 2",
    '[approve] ✓ approved: Approve · by ada via cli · "ship it"',
    "[approve] ✗ rejected: Revise · by bob via web",
    "[approve] ? Which release?",
    "[approve]   options: free text",
    "[approve]   answer: baton answer 7 TEXT",
  ]);
  const named = render([sample("run.created", undefined, { number: 3 }), sample("approval.requested", gate)]).lines;
  assert.equal(named.at(-1), "[approve]   answer: baton approve 3 · baton reject 3 · baton answer 3 CHOICE", "a new run is named by the number run.created gives it");
});

test("fan-outs, branches, merges, conflicts and waits; each branch's lines name the branch, and streamed text of two branches never shares a line", () => {
  const review = { id: "review", visit: 1 };
  const b1 = { id: "review_security", visit: 1, branch: "b1" };
  const b2 = { id: "review_tests", visit: 1, branch: "b2" };
  const { lines } = render([
    sample("parallel.started", review),
    sample("branch.started", { ...review, branch: "b1" }),
    ev("agent.delta", { session: "ses_1", kind: "text", text: "security " }, b1),
    ev("agent.delta", { session: "ses_2", kind: "text", text: "tests " }, b2),
    ev("agent.delta", { session: "ses_1", kind: "text", text: "done" }, b1),
    sample("tool.started", b2, { kind: "execute", title: "Run npm test" }),
    sample("branch.completed", { ...review, branch: "b1" }, { error: undefined }),
    sample("branch.completed", { ...review, branch: "b2" }, { branch: "b2", outcome: "failed", head_sha: undefined, error: { code: "stage_failed", message: "tests failed" } }),
    sample("parallel.completed", review),
    sample("integration.completed", { id: "merge", visit: 1 }),
    sample("integration.conflicted", { id: "merge", visit: 1 }, { files: ["a.ts", "b.ts"] }),
    sample("wait.started", { id: "cool_down", visit: 1 }),
  ]);
  assert.deepEqual(lines, [
    "[review] ⑂ fan-out of 2 branches (wait_all, 2 at a time): b1 → review_security, b2 → review_tests",
    "[review/b1] ⑂ branch b1 → review_security",
    "[review_security/b1] security ",
    "[review_tests/b2] tests ",
    "[review_security/b1] done",
    "[review_tests/b2] ⚙ execute Run npm test",
    "[review/b1] ⑃ branch b1 succeeded · head fedcba98",
    "[review/b2] ⑃ branch b2 failed: tests failed",
    "[review] ⑃ fan-out partially_succeeded: 1 succeeded, 1 failed",
    "[merge] ⤵ merged b1 · 76543210",
    "[merge] ✗ b2 conflicts with the run's branch: a.ts, b.ts",
    "[cool_down] ⏳ waiting 15 min 0 s, until 2026-11-29T10:15:00.123Z",
  ]);
});

test("a stage whose label is its id shows no label: the prefix names it", () => {
  const { lines } = render([sample("stage.started", { id: "start", visit: 1 }, { stage: "start", label: "start", handler: "start", max_attempts: 1, agent: undefined, model: undefined })]);
  assert.deepEqual(lines, ["[start] ▸ start stage"]);
});

test("a forked run names its origin under its first line", () => {
  const { lines } = render([sample("run.created", undefined, { number: 4, origin: { run: "run_01", number: 2, stage: "build", visit: 1, commit: "0123456789abcdef" } })]);
  assert.equal(lines[2], "  forked from run 2 at build@1 (0123456789ab)");
});

test("hostile: stage ids, branches, labels, questions, options, context keys and file names reach the terminal with their controls shown", () => {
  const evil = "\x1b[2J\x1b]0;pwned\x07\u202e";
  const shown = "\\x1b[2J\\x1b]0;pwned\\x07\\u202e";
  const scope = { id: `plan${evil}`, visit: 1, branch: `b${evil}` };
  const { raw } = render([
    sample("stage.started", scope, { label: `Plan${evil}`, handler: `agent${evil}` }),
    sample("stage.failed", scope, { error: { code: `bad${evil}`, message: `broke${evil}` } }),
    sample("route.selected", scope, { to: `fix${evil}`, condition: `outcome=failed${evil}` }),
    sample("context.updated", scope, { updates: { [`key${evil}`]: 1 } }),
    sample("approval.requested", scope, { question: `Ship${evil}?`, options: [{ label: `Yes${evil}`, to: "exit", key: `Y${evil}` }] }),
    sample("approval.resolved", scope, { choice: `Yes${evil}`, by: `ada${evil}`, comment: `ok${evil}` }),
    sample("integration.conflicted", scope, { branch: `b2${evil}`, files: [`src/${evil}.ts`] }),
    sample("workflow.loaded", undefined, { name: `wf${evil}`, file: `.baton/workflows/${evil}.dot` }),
  ]);
  const text = raw.replaceAll(/\x1b\[[0-9;]*m/g, "");
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, "no control but newline");
  for (const needle of ["[plan", "/b", "Plan", "bad", "broke", "fix", "outcome=failed", "key", "Ship", "Yes", "ada", "ok", "b2", "src/", "wf"]) {
    assert.ok(
      text.split("\n").some((line) => line.includes(`${needle}${shown}`)),
      `${needle} is shown with its controls made visible`,
    );
  }
});

test("malformed workflow events never throw", () => {
  for (const type of ["workflow.loaded", "stage.started", "stage.completed", "stage.failed", "stage.retrying", "route.selected", "checkpoint.saved", "context.updated", "approval.requested", "approval.resolved", "wait.started", "parallel.started", "branch.started", "branch.completed", "parallel.completed", "integration.completed", "integration.conflicted", "run.paused", "run.started", "run.created"]) {
    assert.doesNotThrow(() => render([ev(type, { nodes: 3, options: "x", updates: [], branches: {}, results: 5, files: "a", error: "no", usage: 7, origin: "o", visit: "1" }, { id: "s", visit: 1 })]), type);
  }
});
