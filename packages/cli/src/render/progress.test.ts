import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { stripVTControlCharacters } from "node:util";
import type { Envelope } from "@baton/protocol";
import { SAMPLE_AT, SAMPLE_DATA, SAMPLE_RUN_ID } from "@baton/protocol/testing";
import { ProgressRenderer } from "./progress.ts";

let seq = 0;
const ev = (type: string, data: Record<string, unknown>): Envelope => ({ v: 1, run: SAMPLE_RUN_ID, seq: (seq += 1), at: SAMPLE_AT, type, data }) as Envelope;
const sample = (type: keyof typeof SAMPLE_DATA, change: Record<string, unknown> = {}) => ev(type, { ...SAMPLE_DATA[type], ...change });

/** The lines the live view prints for `events`, colours stripped. */
function render(events: Envelope[]): string[] {
  let out = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const renderer = new ProgressRenderer(stream);
  for (const event of events) renderer.render(event);
  return stripVTControlCharacters(out).split("\n").slice(0, -1);
}

const usage = { input_tokens: 1200, output_tokens: 340 };

test("limit warnings, limits reached and hand-backs are one line each with their figures", () => {
  assert.deepEqual(
    render([
      sample("limit.warning", { limit: "time", used: 480_000, max: 600_000, fraction: 0.8, threshold: 0.8 }),
      sample("limit.warning", { limit: "tokens", used: 1_200_000, max: 2_000_000, fraction: 0.6, threshold: 0.6, notified: false }),
      sample("limit.reached", { limit: "cost", used: 0.96, max: 1, fraction: 0.96, action: "handback" }),
      sample("limit.reached", { limit: "time", used: 600_000, max: 600_000, fraction: 1, action: "cancel" }),
      sample("limit.reached", { limit: "tool_calls", used: 500, max: 500, fraction: 1, action: "stop" }),
      sample("handback.requested", { reason: "limit", limit: "cost" }),
      sample("handback.requested", { reason: "provider", class: "overloaded" }),
      sample("handback.requested", { reason: "repeat" }),
    ]),
    [
      "  ⚠ time limit past 80%: 80% used (8m of 10m); the agent was told",
      "  ⚠ token limit past 60%: 60% used (1,200,000 of 2,000,000 tokens)",
      "  ⚠ cost limit nearly reached: 96% used ($0.96 of $1.00)",
      "  ■ time limit reached (10m of 10m): cancelling the turn",
      "  ■ tool call limit reached (500 of 500 tool calls): stopping the run",
      "  ↩ asking the agent to hand back its work (cost limit)",
      "  ↩ asking the agent to hand back its work (the model provider: overloaded)",
      "  ↩ asking the agent to hand back its work (the same tool call again and again)",
    ],
  );
});

test("provider errors, retries, model switches, stalls and loops are one line each", () => {
  assert.deepEqual(
    render([
      sample("provider.error"),
      sample("retry.scheduled", { delay_ms: 12_345 }),
      sample("provider.error", { class: "overloaded", status: undefined, retry_after_ms: undefined, message: "API Error: 529 overloaded" }),
      sample("model.switched"),
      sample("model.switched", { model: "small-model-2026" }),
      sample("stall.detected", { idle_ms: 150_000, action: "fail" }),
      sample("repeat.detected"),
      sample("repeat.detected", { count: 8, action: "handback", notified: undefined }),
    ]),
    [
      "  ✗ provider error: rate_limited (429, retry-after 5.0s) — Internal error: API Error: 429 rate limit exceeded",
      "    ↻ retry 1/3 in 12.3s",
      "  ✗ provider error: overloaded — API Error: 529 overloaded",
      "  ⇄ model switched: big-model → small-model (overloaded)",
      "  ⇄ model switched: big-model → small-model (overloaded); the agent reports small-model-2026",
      "  ⚠ stalled: nothing from the agent for 2m 30s; failing the run",
      "  ⚠ loop: the same execute call 5 times in a row (same input, same result); the agent was told",
      "  ⚠ loop: the same execute call 8 times in a row (same input, same result)",
    ],
  );
});

test("a provider message keeps its first line only", () => {
  const [line] = render([sample("provider.error", { message: `API Error: 500\n${"x".repeat(500)}` })]);
  assert.equal(line, "  ✗ provider error: rate_limited (429, retry-after 5.0s) — API Error: 500");
});

test("budgets show only with a limit, and only when the most used limit passes another tenth", () => {
  const budget = (elapsed: number, fraction?: number) =>
    sample("budget.updated", { elapsed_ms: elapsed, limits: fraction === undefined ? {} : { timeout_ms: 600_000 }, limit: fraction === undefined ? undefined : "time", fraction });
  assert.deepEqual(render([budget(1000), budget(5000)]), [], "no limit: no budget lines");
  assert.deepEqual(render([budget(6_000, 0.01), budget(30_000, 0.05), budget(61_000, 0.1017), budget(62_000, 0.1033), budget(300_000, 0.5)]), [
    "  budget: time limit 1% used (6s of 10m)",
    "  budget: time limit 10% used (1m 1s of 10m)",
    "  budget: time limit 50% used (5m of 10m)",
  ]);
});

test("a turn sent for another reason than the task says why", () => {
  const turn = (reason: string, n: number) => ev("turn.started", { session: "ses_1", turn: n, reason });
  assert.deepEqual(render([turn("task", 1), turn("resend", 2), turn("notice", 3), turn("handback", 4), turn("reminder", 5), turn("steer", 6), turn("later", 7)]), [
    "  » turn 2: the turn sent again",
    "  » turn 3: a notice to the agent",
    "  » turn 4: the hand-back prompt",
    "  » turn 5: a reminder: the task asks for a change",
    "  » turn 6: a steering prompt",
    "  » turn 7: later",
  ]);
});

test("a stopped run's last line says what stopped it and what was kept", () => {
  const stopped = (data: Record<string, unknown>) => ev("run.completed", { status: "stopped", usage, active_ms: 1, duration_ms: 600_000, ...data });
  assert.deepEqual(
    render([
      stopped({ stopped_by: "time", handed_back: true, commit: "89abcdef0123456789", cost_usd: 0.42 }),
      stopped({ stopped_by: "provider", provider_error: "overloaded" }),
      stopped({ stopped_by: "repeats", handed_back: false }),
      stopped({ stopped_by: "tokens" }),
      stopped({}),
    ]),
    [
      "■ stopped by the time limit; the agent handed back; work committed 89abcdef0123 · 1,200 in / 340 out tokens · $0.42 · 10 min 0 s",
      "■ stopped by the model provider (overloaded) · 1,200 in / 340 out tokens · 10 min 0 s",
      "■ stopped by a loop of the same tool call; the agent did not hand back · 1,200 in / 340 out tokens · 10 min 0 s",
      "■ stopped by the token limit · 1,200 in / 340 out tokens · 10 min 0 s",
      "■ stopped · 1,200 in / 340 out tokens · 10 min 0 s",
    ],
  );
});

test("a succeeded run is unchanged; a failed run names the provider's class", () => {
  assert.deepEqual(render([sample("run.completed"), sample("run.failed"), sample("run.failed", { provider_error: undefined })]), [
    "✔ succeeded · 1,200 in / 340 out tokens · $0.12 · 6.1 s",
    "✘ failed (provider_unreachable): connection refused · model provider: unreachable",
    "✘ failed (provider_unreachable): connection refused",
  ]);
});

test("a warning or an error logged by Baton is a line; an info log is not", () => {
  assert.deepEqual(
    render([
      ev("log", { level: "warn", code: "token_budget_small", message: "a budget of 500 tokens is small against one turn" }),
      ev("log", { level: "info", code: "no_changes", message: "nothing changed in the worktree" }),
      ev("log", { level: "error", code: "commit_failed", message: "could not commit" }),
    ]),
    ["  ⚠ a budget of 500 tokens is small against one turn", "  ⚠ could not commit"],
  );
});

test("around a tool-call cap the live view reads in log order: the warning, the hand-back, the call not granted in the cancelled turn", () => {
  // The log of a run capped at 4 tool calls, as Baton writes it (e2e/limits.e2e.test.ts).
  assert.deepEqual(
    render([
      ev("limit.warning", { limit: "tool_calls", used: 3, max: 4, fraction: 0.75, threshold: 0.6, notified: false }),
      ev("limit.reached", { limit: "tool_calls", used: 3, max: 4, fraction: 0.75, action: "handback" }),
      ev("tool.started", { session: "s", call: "c4", tool: "execute", kind: "execute", title: "Run echo step 2" }),
      ev("permission.requested", { session: "s", call: "c4", tool: "execute", options: [] }),
      ev("permission.resolved", { session: "s", call: "c4", decision: "cancelled", by: "policy", rule: "default:turn-cancelled" }),
      ev("tool.completed", { session: "s", call: "c4", tool: "execute", status: "failed", is_error: true, duration_ms: 2, output_chars: 0 }),
      ev("turn.completed", { session: "s", turn: 1, stop_reason: "cancelled", duration_ms: 100 }),
      ev("handback.requested", { reason: "limit", limit: "tool_calls" }),
      ev("turn.started", { session: "s", turn: 2, reason: "handback" }),
    ]),
    [
      "  ⚠ tool call limit past 60%: 75% used (3 of 4 tool calls)",
      "  ⚠ tool call limit nearly reached: 75% used (3 of 4 tool calls)",
      "  ⚙ execute Run echo step 2",
      "    permission: cancelled (its turn was being cancelled)",
      "    ✗ failed · 2 ms",
      "  ↩ asking the agent to hand back its work (tool call limit)",
      "  » turn 2: the hand-back prompt",
    ],
  );
});

test("a lost worker: who it was, its epoch and last seq, and who took the run over", () => {
  assert.deepEqual(render([ev("worker.lost", { previous_owner: "build-3:4242:9f1c", epoch: 1, last_seq: 17, owner: "build-5:5151:03de" })]), ["  ✗ worker lost: build-3:4242:9f1c (epoch 1, after seq 17); taken over by build-5:5151:03de"]);
});

test("malformed data never throws", () => {
  for (const type of ["worker.lost", "budget.updated", "limit.warning", "limit.reached", "provider.error", "retry.scheduled", "model.switched", "stall.detected", "repeat.detected", "handback.requested", "turn.started", "run.completed", "run.failed", "log"]) {
    assert.doesNotThrow(() => render([ev(type, { limit: 3, fraction: "x", limits: null, used: {}, reason: 7, status: "stopped", error: "no", usage: 5 })]), type);
  }
});

test("hostile: text from the task, the agent, tools and the log reaches the terminal with its controls shown, never raw", () => {
  const evil = "\x1b[2J\x1b]0;pwned\x07\x9b2J\u202e";
  const shown = "\\x1b[2J\\x1b]0;pwned\\x07\\x9b2J\\u202e";
  let raw = "";
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      raw += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  const renderer = new ProgressRenderer(stream);
  for (const event of [
    sample("run.created", { task: `Fix it${evil}`, agent: `fake${evil}` }),
    sample("workspace.ready", { kind: "worktree", path: `/repo/.baton/worktrees/1-x${evil}`, branch: `baton/1-x${evil}` }),
    sample("agent.delta", { kind: "text", text: `streamed${evil}\nsecond line` }),
    sample("agent.message", { text: `streamed${evil}\nsecond line` }),
    sample("agent.message", { text: `said${evil}` }),
    sample("agent.thought", { text: `thought${evil}` }),
    sample("plan.updated", { entries: [{ content: `step${evil}`, status: "pending" }] }),
    sample("tool.started", { title: `Run echo${evil}\nfake line` }),
    sample("permission.resolved", { rule: `mine${evil}` }),
    sample("git.committed", { branch: `baton/1-x${evil}`, message: `Fix it${evil}` }),
    sample("provider.error", { message: `API Error${evil}` }),
    sample("run.failed", { error: { code: `bad${evil}`, message: `failed${evil}` }, provider_error: `other${evil}` }),
  ]) {
    renderer.render(event);
  }
  // Only Baton's own colours are left out (none when the stream is not a terminal).
  const text = raw.replaceAll(/\x1b\[[0-9;]*m/g, "");
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/, "no control but newline");
  assert.ok(!raw.includes("\x1b]") && !raw.includes("\x1b[2J") && !raw.includes("\x07"), "no escape sequence of the text's own");
  const lines = text.split("\n");
  for (const needle of ["task: Fix it", "agent fake", "1-x", "streamed", "said", "thinking: thought", "step", "Run echo", "rule mine", "API Error", "failed (bad"]) {
    assert.ok(lines.some((line) => line.includes(needle) && line.includes(shown)), `${needle} is shown with its controls made visible`);
  }
  assert.ok(lines.includes("  second line"), "a message keeps its lines");
  assert.ok(lines.some((line) => line.endsWith(`Run echo${shown}\\nfake line`)), "a one-line field shows its newline");
});

test("a plain run's work is laid out as it always was: two spaces in, no stage in front", () => {
  assert.deepEqual(
    render([
      sample("run.created", { origin: undefined, workflow: undefined }),
      sample("agent.delta", { kind: "text", text: "Looking at\nthe test" }),
      sample("agent.message", { text: "Looking at\nthe test" }),
      sample("tool.started", { kind: "edit", title: "Write src/date.ts" }),
      sample("tool.completed", { status: "completed", exit_code: undefined, duration_ms: 19 }),
      sample("git.committed", { files: [{ path: "src/date.ts", change: "modified" }] }),
    ]).slice(2),
    ["  Looking at", "  the test", "  ⚙ edit Write src/date.ts", "    ✓ completed · 19 ms", "  ● committed 89abcdef on baton/7-fix-the-flaky-date-test · 1 file · Fix the flaky date test"],
  );
});

test("people's inputs, questions waiting for a person and their answers are one line each", () => {
  assert.deepEqual(
    render([
      ev("run.created", { number: 7, task: "t", agent: "fake", repo: { root: "/r", dirty: false } }),
      sample("input.queued"),
      sample("input.delivered"),
      sample("input.rejected"),
      ev("permission.requested", { session: "s", call: "c9", tool: "execute", options: [], awaiting: "person", rule: "ask-run", timeout_ms: 600_000 }),
      ev("permission.resolved", { session: "s", call: "c9", decision: "allow_once", by: "human", rule: "ask-run", who: "ada" }),
      ev("permission.resolved", { session: "s", call: "c8", decision: "reject_once", by: "human", rule: "ask-run", who: "bob", reason: "not now" }),
      ev("permission.resolved", { session: "s", call: "c7", decision: "reject_once", by: "policy", rule: "ask:timeout" }),
    ]).slice(2),
    [
      "  ✉ ada: Please keep the public API unchanged. (in_1)",
      "    input in_1 delivered mid-turn",
      "  ✉ input in_2 refused (too_long): 5000 characters, more than the 4000 an input may have",
      "  ? execute asks permission (rule ask-run, denied in 600s without an answer): baton allow 7 c9 · baton deny 7 c9",
      "    permission: allow_once (by ada)",
      "    permission: reject_once (by bob: not now)",
      "    permission: reject_once (rule ask:timeout)",
    ],
  );
});

test("a question the agent asks shows its message, its form's fields and how to answer; its answer is one line", () => {
  assert.deepEqual(
    render([
      ev("run.created", { number: 7, task: "t", agent: "fake", repo: { root: "/r", dirty: false } }),
      sample("question.asked"),
      sample("question.answered"),
      ev("question.asked", { session: "s", id: "q_2", mode: "url", message: "Sign in", fields: [] }),
      ev("question.answered", { session: "s", id: "q_2", action: "decline", by: "policy", rule: "question:unsupported", reason: "Baton puts form questions to people, not url ones" }),
    ]).slice(2),
    [
      "  ? the agent asks: Which database should the cache use? (q_0a1b2c3d4e5f)",
      "      question_0: one of PostgreSQL | SQLite (Database)",
      "      question_0_custom?: string (Other)",
      "    answer: baton reply 7 q_0a1b2c3d4e5f FIELD=VALUE… · baton reply 7 q_0a1b2c3d4e5f --decline (declined in 600s without an answer)",
      '    question q_0a1b2c3d4e5f: accept {"question_0":"PostgreSQL"} (by ada)',
      "  ? the agent asks: Sign in (q_2)",
      "    question q_2: decline (rule question:unsupported: Baton puts form questions to people, not url ones)",
    ],
  );
});
