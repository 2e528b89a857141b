import assert from "node:assert/strict";
import { test } from "node:test";
import { render } from "ink-testing-library";
import { createElement as h } from "react";
import type { RunSummary } from "@baton/engine/store";
import type { Envelope } from "@baton/protocol/core";
import { TuiApp } from "./app.ts";
import type { TuiSource } from "./tui-source.ts";

const RUNS: RunSummary[] = [
  { id: "run_B", number: 2, status: "running", task: "Add a flag\nmore", agent: "fake", started_at: "2026-01-01T00:00:00.000Z", last_seq: 3, committed_bytes: 0 },
  { id: "run_A", number: 1, status: "succeeded", task: "Fix the bug", agent: "claude", started_at: "2026-01-01T00:00:00.000Z", ended_at: "2026-01-01T00:01:05.000Z", last_seq: 9, committed_bytes: 0 },
];
let seq = 0;
const ev = (type: string, data: Record<string, unknown>): Envelope => ({ v: 1, run: "run_B", seq: ++seq, at: "2026-01-01T00:00:00.000Z", type, data }) as Envelope;
const EVENTS = [
  ev("run.created", { number: 2, task: "Add a flag", agent: "fake", repo: { root: "/r", dirty: false } }),
  ev("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }),
  ev("agent.message", { session: "s", text: "Looking at the code" }),
  ev("permission.requested", { session: "s", call: "call_7", tool: "execute", options: [], awaiting: "person", rule: "ask-run" }),
  ev("usage.updated", { session: "s", basis: "delta", input_tokens: 1200, output_tokens: 300 }),
];

function source(done: Promise<void>) {
  const asked: string[] = [];
  const src: TuiSource = {
    listRuns: () => Promise.resolve(RUNS),
    follow: async function* (_runId: string, signal: AbortSignal) {
      for (const event of EVENTS) yield event;
      await Promise.race([done, new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }))]);
    },
    cancel: (runId) => {
      asked.push(`cancel ${runId}`);
      return Promise.resolve();
    },
    reply: () => Promise.resolve(),
    answer: (runId, _state, questions, call, action) => {
      asked.push(`${action} ${runId} ${call} ${questions.open.has(call)}`);
      return Promise.resolve();
    },
    steer: () => Promise.reject(new Error("not in this test")),
    decide: () => Promise.reject(new Error("not in this test")),
    readOutput: () => Promise.reject(new Error("not in this test")),
  };
  return { src, asked };
}

/**
 * Presses `key` until the frame shows `pattern`: a key pressed while ink re-subscribes its input
 * handler after a render may be missed, and a key that moves between screens is safe to repeat.
 */
async function pressUntil(app: ReturnType<typeof render>, key: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    app.stdin.write(key);
    const text = await until(app.lastFrame, pattern, 200).catch(() => undefined);
    if (text !== undefined) return text;
    if (Date.now() > deadline) throw new Error(`pressing ${JSON.stringify(key)} never showed ${pattern} in:\n${app.lastFrame() ?? ""}`);
  }
}

async function until(frame: () => string | undefined, pattern: RegExp, timeoutMs = 5_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = frame() ?? "";
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`never saw ${pattern} in:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("the run list shows each run's number, status, agent, time and first line of its task, newest first", async () => {
  const { src } = source(new Promise(() => {}));
  const app = render(h(TuiApp, { source: src, now: () => Date.parse("2026-01-01T00:02:00.000Z") }));
  try {
    const frame = await until(app.lastFrame, /Fix the bug/);
    const lines = frame.split("\n");
    assert.match(lines[0] ?? "", /^#\s+STATUS\s+AGENT\s+TIME\s+TASK/);
    assert.match(lines[1] ?? "", /^2\s+running\s+fake\s+2 min 0 s\s+Add a flag$/);
    assert.match(lines[2] ?? "", /^1\s+succeeded\s+claude\s+1 min 5 s\s+Fix the bug$/);
    assert.match(frame, /2 runs · Enter open/);
  } finally {
    app.unmount();
  }
});

test("Enter opens a run: its facts, its timeline and the question that waits; a answers it, c cancels, Esc goes back; ? shows the keys", async () => {
  const { src, asked } = source(new Promise(() => {}));
  const app = render(h(TuiApp, { source: src }));
  try {
    await until(app.lastFrame, /Fix the bug/);
    await pressUntil(app, "\r", /run 2 ·/);
    const frame = await until(app.lastFrame, /question\(s\) wait/);
    assert.match(frame, /^run 2 · running · fake · 1,?200 in \/ 300 out tokens/);
    assert.match(frame, /Looking at the code/);
    assert.match(frame, /execute asks permission \(rule ask-run\): baton allow 2 call_7/);
    app.stdin.write("a");
    app.stdin.write("c");
    await until(() => asked.join(","), /cancel run_B/);
    assert.deepEqual(asked, ["allow run_B call_7 true", "cancel run_B"]);
    await pressUntil(app, "?", /a allow \/ d deny the permission question that waits/);
    assert.match(app.lastFrame() ?? "", /r reply to the agent.s question \(FIELD=VALUE …, Enter send\) · x decline it/);
    await pressUntil(app, "\x1b", /2 runs · Enter open/);
  } finally {
    app.unmount();
  }
});
