import assert from "node:assert/strict";
import { test } from "node:test";
import { render } from "ink-testing-library";
import { createElement as h } from "react";
import { BatonError } from "@baton/engine";
import type { RunSummary } from "@baton/engine/store";
import type { Envelope } from "@baton/protocol/core";
import { TuiApp } from "./app.ts";
import { checkReply } from "@baton/engine/input";
import { checkSteer, type TuiSource } from "./tui-source.ts";
import { definedFields } from "@baton/protocol/core";

const RUN: RunSummary = { id: "run_W", number: 7, status: "running", task: "Ship it", agent: "fake", started_at: "2026-01-01T00:00:00.000Z", last_seq: 1, committed_bytes: 0 };

let seq = 0;
const at = "2026-01-01T00:00:00.000Z";
const ev = (type: string, data: Record<string, unknown>, stage?: { id: string; visit: number }): Envelope =>
  ({ v: 1, run: "run_W", seq: ++seq, at, type, data, ...definedFields({ stage }) }) as Envelope;
const plan = { id: "plan", visit: 1 };
const build = { id: "build", visit: 1 };

/** A workflow run: a plan stage that made two tool calls and shared a plan, then a build stage that runs. */
const RUNNING: Envelope[] = [
  ev("run.created", { number: 7, task: "Ship it", agent: "fake", repo: { root: "/r", dirty: false } }),
  ev("run.started", { attempt: 1, resumed: false, pid: 1, host: "h" }),
  ev("stage.started", { stage: "plan", visit: 1, attempt: 1, handler: "agent" }, plan),
  ev("plan.updated", { session: "s", entries: [{ content: "Read the code", status: "completed" }, { content: "Write the flag", status: "in_progress" }] }, plan),
  ev("tool.started", { session: "s", call: "call_1", tool: "read", kind: "read", title: "README.md" }, plan),
  ev("tool.completed", { session: "s", call: "call_1", tool: "read", status: "completed", is_error: false, duration_ms: 12, output_chars: 30, preview: "# Readme", output_file: "outputs/call_1.txt" }, plan),
  ev("tool.started", { session: "s", call: "call_2", tool: "execute", kind: "execute", title: "npm test" }, plan),
  ev("tool.completed", { session: "s", call: "call_2", tool: "execute", status: "failed", is_error: true, duration_ms: 1500, output_chars: 0 }, plan),
  ev("usage.updated", { session: "s", basis: "delta", input_tokens: 5000, output_tokens: 700, cost_usd: 0.25 }),
  ev("stage.completed", { stage: "plan", visit: 1, outcome: "succeeded", duration_ms: 65_000, usage: { input_tokens: 5000, output_tokens: 700 } }, plan),
  ev("stage.started", { stage: "build", visit: 1, attempt: 1, handler: "agent" }, build),
];
const GATE: Envelope[] = [
  ev("approval.requested", { gate: "review", question: "Merge the change?", options: [{ label: "Ship", to: "done", key: "s" }, { label: "Redo", to: "build" }], freeform: false }),
  ev("run.paused", { gate: "review" }),
];

/** A source that plays `events`, then waits; `push` adds live ones; every action is recorded. */
function source(events: Envelope[]) {
  const asked: string[] = [];
  const live: Envelope[] = [];
  let wake: (() => void) | undefined;
  const push = (...more: Envelope[]) => {
    live.push(...more);
    wake?.();
  };
  const src: TuiSource = {
    listRuns: () => Promise.resolve([RUN]),
    follow: async function* (_runId, signal) {
      for (const event of events) yield event;
      while (!signal.aborted) {
        while (live.length > 0) yield live.shift() as Envelope;
        await new Promise<void>((resolve) => {
          wake = resolve;
          signal.addEventListener("abort", () => resolve(), { once: true });
        });
      }
    },
    cancel: (runId) => record(`cancel ${runId}`),
    answer: (runId, _state, _questions, call, action) => record(`${action} ${runId} ${call}`),
    steer: (runId, state, text) => {
      checkSteer(state, text);
      return record(`steer ${runId} ${text}`);
    },
    reply: (runId, state, askedLog, reply) => {
      // The store's own check, as storeSource makes it: the form's fields decide.
      checkReply(state, askedLog, { ...reply, who: "ada", via: "terminal" });
      return record(`reply ${runId} ${reply.question} ${reply.action}${reply.content === undefined ? "" : ` ${JSON.stringify(reply.content)}`}`);
    },
    decide: (runId, state, decision) => {
      if (state.workflow.gate === undefined) return Promise.reject(new BatonError("not_paused", "run 7 is running, not waiting at a gate"));
      return record(`${decision.kind} ${runId}${decision.value === undefined ? "" : ` ${decision.value}`}`);
    },
    readOutput: (_runId, call) => {
      if (call.output_file === undefined) return Promise.reject(new BatonError("output_not_found", `tool call ${call.call} left no output in the trace store`));
      return record(`output ${call.call}`).then(() => "# Readme\nline two\n\x1b[31mred\x1b[0m");
    },
  };
  function record(line: string): Promise<void> {
    asked.push(line);
    return Promise.resolve();
  }
  return { src, asked, push };
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

/** Presses `key` until the frame shows `pattern` (a key pressed while ink re-subscribes its input handler may be missed). */
async function pressUntil(app: ReturnType<typeof render>, key: string, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    app.stdin.write(key);
    const text = await until(app.lastFrame, pattern, 200).catch(() => undefined);
    if (text !== undefined) return text;
    if (Date.now() > deadline) throw new Error(`pressing ${JSON.stringify(key)} never showed ${pattern} in:\n${app.lastFrame() ?? ""}`);
  }
}

async function openRun(events: Envelope[]) {
  const made = source(events);
  const app = render(h(TuiApp, { source: made.src }));
  await until(app.lastFrame, /Ship it/);
  await pressUntil(app, "\r", /run 7 ·/);
  await until(app.lastFrame, /stage build/);
  return { ...made, app };
}

test("the run view's panels: stages with status, time and tokens; the plan; tool calls; usage and cost", async () => {
  const { app } = await openRun(RUNNING);
  try {
    const first = app.lastFrame() ?? "";
    assert.match(first.split("\n")[0] ?? "", /^run 7 · running · stage build · fake · 5,000 in \/ 700 out tokens · \$0\.25$/);
    assert.match(first, / 1 timeline\s+2 stages\s+3 plan\s+4 tools\s+5 usage/);
    const stages = await pressUntil(app, "2", /plan@1/);
    assert.match(stages, /✓ plan@1\s+agent\s+succeeded\s+1 min 5 s · 5,000 in \/ 700 out tokens/);
    assert.match(stages, /… build@1\s+agent\s+running/);
    const planned = await pressUntil(app, "3", /Write the flag/);
    assert.match(planned, /\[x\] Read the code\n\[>\] Write the flag/);
    const tools = await pressUntil(app, "4", /call_2/);
    assert.match(tools, /▸ ✓ plan@1 call_1 read README\.md \(completed 12 ms\) · # Readme/);
    assert.match(tools, /✗ plan@1 call_2 execute npm test \(failed 1\.5 s\)/);
    assert.match(tools, /Enter open output/);
    const usage = await pressUntil(app, "\t", /cost: \$0\.25/);
    assert.match(usage, /tokens: 5,000 in · 700 out · 0 cache read · 0 cache write/);
    assert.match(usage, /tool calls 2 \(1 failed\)/);
    await pressUntil(app, "\t", /Esc back · Tab panel/);
  } finally {
    app.unmount();
  }
});

test("Enter on a tool call opens its whole output (controls made visible), Esc closes it; a call without output says so", async () => {
  const { app, asked } = await openRun(RUNNING);
  try {
    await pressUntil(app, "4", /call_2/);
    const opened = await pressUntil(app, "\r", /output of call_1/);
    assert.match(opened, /output of call_1 \(read\) · 3 lines/);
    assert.match(opened, /# Readme\nline two\n\\x1b\[31mred\\x1b\[0m/);
    assert.deepEqual(asked, ["output call_1"]);
    await pressUntil(app, "\x1b", /call_2 execute/);
    await pressUntil(app, "j", /▸ ✗ plan@1 call_2/);
    const refused = await pressUntil(app, "o", /left no output in the trace store/);
    assert.match(refused, /tool call call_2 left no output/);
  } finally {
    app.unmount();
  }
});

test("a tool call whose event holds its whole output opens it from the event, without asking the trace store", async () => {
  const short = [
    ev("tool.started", { session: "s", call: "call_3", tool: "execute", kind: "execute", title: "echo hi" }, build),
    ev("tool.completed", { session: "s", call: "call_3", tool: "execute", status: "completed", is_error: false, duration_ms: 3, output_chars: 13, preview: "hi from call\n" }, build),
  ];
  const { app, asked } = await openRun([...RUNNING, ...short]);
  try {
    await pressUntil(app, "4", /call_3/);
    await pressUntil(app, "j", /▸ ✗ plan@1 call_2/);
    await pressUntil(app, "j", /▸ ✓ build@1 call_3/);
    const opened = await pressUntil(app, "\r", /output of call_3/);
    assert.match(opened, /hi from call/);
    assert.deepEqual(asked, [], "the source was not asked");
  } finally {
    app.unmount();
  }
});

test("s opens an input line: typed text (q and ? among it) is sent on Enter; Esc drops a line; an empty line is refused", async () => {
  const { app, asked } = await openRun(RUNNING);
  try {
    await pressUntil(app, "s", /steer the agent: ▏/);
    for (const key of ["use ", "q", "?", " please"]) app.stdin.write(key);
    await until(app.lastFrame, /steer the agent: use q\? please▏/);
    app.stdin.write("\x7f");
    await until(app.lastFrame, /steer the agent: use q\? pleas▏/);
    app.stdin.write("\r");
    await until(() => asked.join(","), /steer run_W use q\? pleas/);
    assert.match(await until(app.lastFrame, /sent to the agent of run 7/), /run 7 · running/);
    await pressUntil(app, "s", /steer the agent: ▏/);
    app.stdin.write("dropped");
    await until(app.lastFrame, /steer the agent: dropped/);
    await pressUntil(app, "\x1b", /^(?![\s\S]*steer the agent: dropped)/);
    assert.match(app.lastFrame() ?? "", /run 7 · running/, "Esc in the line drops it and stays in the run");
    await pressUntil(app, "s", /steer the agent: ▏/);
    app.stdin.write("\r");
    await until(app.lastFrame, /the text to send is empty/);
    assert.deepEqual(asked, ["steer run_W use q? pleas"]);
  } finally {
    app.unmount();
  }
});

test("the agent's question: the status line says so, r types FIELD=VALUE pairs checked against its form, x declines; with none the keys say so", async () => {
  const { app, asked, push } = await openRun(RUNNING);
  try {
    app.stdin.write("r");
    await until(app.lastFrame, /no question of the agent's waits/);
    const fields = [
      { name: "db", type: "string", required: true, options: [{ value: "postgres" }, { value: "sqlite" }] },
      { name: "notes", type: "string", required: false },
    ];
    push(ev("question.asked", { session: "s", id: "q_1", mode: "form", message: "Which database?", fields, awaiting: "person", timeout_ms: 60_000 }));
    assert.match(await until(app.lastFrame, /the agent asks: Which database\?/), /the agent asks: Which database\? · r reply · x decline/);
    await pressUntil(app, "r", /Which database\? db \(one of postgres \| sqlite\) notes\? \(string\): ▏/);
    app.stdin.write("db=oracle");
    await until(app.lastFrame, /db=oracle▏/);
    app.stdin.write("\r");
    await until(app.lastFrame, /field "db" must be one of postgres, sqlite, not "oracle"/);
    await pressUntil(app, "r", /\(string\): ▏/);
    app.stdin.write("db=sqlite notes=keep it small");
    await until(app.lastFrame, /notes=keep it small▏/);
    app.stdin.write("\r");
    await until(app.lastFrame, /answered question q_1/);
    push(ev("question.answered", { session: "s", id: "q_1", action: "accept", content: { db: "sqlite", notes: "keep it small" }, by: "human", who: "ada" }));
    push(ev("question.asked", { session: "s", id: "q_2", mode: "form", message: "Go on?", fields: [], awaiting: "person" }));
    await until(app.lastFrame, /the agent asks: Go on\?/);
    app.stdin.write("x");
    await until(app.lastFrame, /declined question q_2/);
    assert.deepEqual(asked, ['reply run_W q_1 accept {"db":"sqlite","notes":"keep it small"}', "reply run_W q_2 decline"]);
  } finally {
    app.unmount();
  }
});

test("a gate that waits: y approves it, n rejects it, t types an answer; with no gate the keys say so and do nothing", async () => {
  const { app, asked, push } = await openRun(RUNNING);
  try {
    app.stdin.write("y");
    await until(app.lastFrame, /run 7 waits at no gate/);
    assert.deepEqual(asked, []);
    push(...GATE);
    const waiting = await until(app.lastFrame, /gate review waits/);
    assert.match(waiting, /gate review waits: Merge the change\? · y approve · n reject · t answer/);
    assert.match(waiting, /^run 7 · paused/);
    const stages = await pressUntil(app, "2", /y approve · n reject · t answer one of: Ship \(s\), Redo/);
    assert.match(stages, /gate review waits: Merge the change\?/);
    app.stdin.write("y");
    await until(() => asked.join(","), /approve run_W/);
    app.stdin.write("n");
    await until(() => asked.join(","), /reject run_W/);
    await pressUntil(app, "t", /answer gate review: ▏/);
    app.stdin.write("Redo");
    app.stdin.write("\r");
    await until(() => asked.join(","), /answer run_W Redo/);
    app.stdin.write("s");
    await until(app.lastFrame, /run 7 is paused: nothing to steer/);
    assert.deepEqual(asked, ["approve run_W", "reject run_W", "answer run_W Redo"]);
    push(ev("run.cancelled", { by: "cli", usage: { input_tokens: 0, output_tokens: 0 } }));
    await until(app.lastFrame, /^run 7 · cancelled/);
    app.stdin.write("c");
    await until(app.lastFrame, /run 7 already ended \(cancelled\): nothing to cancel/);
    assert.equal(asked.length, 3, "a run that ended is not asked to cancel");
  } finally {
    app.unmount();
  }
});

test("the timeline is windowed: of a 100,000-event run only the screen's rows are drawn, and ↑/PgUp/G scroll it", async () => {
  const many: Envelope[] = [RUNNING[0] as Envelope, RUNNING[1] as Envelope, RUNNING[2] as Envelope, RUNNING[10] as Envelope];
  for (let index = 1; index <= 100_000; index += 1) many.push(ev("agent.message", { session: "s", text: `message ${index}` }));
  const { app } = await openRun(many);
  try {
    const end = await until(app.lastFrame, /message 100000/, 30_000);
    const rows = end.split("\n");
    assert.ok(rows.length <= 24, `the frame is ${rows.length} rows`);
    await pressUntil(app, "\x1b[5~", /lines up, G: follow/);
    assert.doesNotMatch(app.lastFrame() ?? "", /message 100000\n/);
    await pressUntil(app, "G", /message 100000/);
  } finally {
    app.unmount();
  }
});
