import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_TOOL_OUTPUT_BYTES } from "./layout.ts";
import { renderSummary, renderTranscript, renderTranscriptAndSummary } from "./render.ts";
import { logBuilder, manyToolRun } from "./testing/events.ts";
import { markdownText } from "./testing/markdown-dom.ts";

const plain = (outputs: Map<string, string>) => ({ readOutput: (file: string) => outputs.get(file), redact: (text: string) => text, runDir: ".baton/runs/run_x" });

test("a run of 150 tool calls with 10 KB outputs overflows the bound: the summary keeps all prose, heads and tails, and names the transcript", () => {
  const { events, outputs } = manyToolRun(150, 10_000);
  const complete = renderTranscript(events, plain(outputs), "md");
  const maxBytes = 400_000;
  assert.ok(Buffer.byteLength(complete) > maxBytes, `the complete transcript overflows (${Buffer.byteLength(complete)} bytes)`);
  // Each output is cut at 8,192 bytes in the complete transcript, with what was left out and where it is.
  assert.ok(!complete.includes("TAIL-1 "), "an output's tail past 8 KiB is not in the complete transcript");
  assert.match(markdownText(complete), /1,8\d\d bytes left out; the full output is in \.baton\/runs\/run_x\/outputs\/c_1\.txt/);

  const summary = renderSummary(events, plain(outputs), { format: "md", maxBytes, completeTranscript: ".baton/runs/run_x/transcript.md" });
  assert.ok(Buffer.byteLength(summary) <= maxBytes, `${Buffer.byteLength(summary)} bytes`);
  const text = markdownText(summary);
  for (let i = 1; i <= 150; i += 1) {
    assert.ok(text.includes(`PROSE-${i}-END`), `prose of step ${i} kept`);
    assert.ok(text.includes(`HEAD-${i} `), `head of output ${i} kept`);
    assert.ok(text.includes(`TAIL-${i}`), `tail of output ${i} kept`);
  }
  assert.match(text, /Complete transcript: \.baton\/runs\/run_x\/transcript\.md/);
  assert.match(text, /Status: succeeded/);
});

test("the default bound keeps a summary under GitHub's 1 MiB step-summary cap, even when prose alone is larger", () => {
  const log = logBuilder();
  log.add("run.created", { number: 2, task: "talk a lot", agent: "fake", repo: { root: "/r", dirty: false } });
  for (let turn = 1; turn <= 40; turn += 1) {
    log.add("turn.started", { session: "s", turn, reason: turn === 1 ? "task" : "reminder" });
    log.add("agent.message", { session: "s", turn, text: `START-${turn} ${"word ".repeat(10_000)} END-${turn}` });
    log.add("turn.completed", { session: "s", turn, stop_reason: "end_turn", duration_ms: 1 });
  }
  log.add("run.completed", { status: "succeeded", usage: { input_tokens: 1, output_tokens: 1 }, active_ms: 1, duration_ms: 1 });
  const summary = renderSummary(log.events, plain(new Map()), { format: "md", completeTranscript: "transcript.md" });
  assert.ok(Buffer.byteLength(summary) < 1024 * 1024);
  assert.ok(Buffer.byteLength(renderTranscript(log.events, plain(new Map()), "md")) > 1024 * 1024);
  // Every message abbreviated to its head and tail, none dropped.
  const text = markdownText(summary);
  for (let turn = 1; turn <= 40; turn += 1) assert.ok(text.includes(`START-${turn} `) && text.includes(` END-${turn}`), `turn ${turn}`);
  assert.match(summary, /bytes left out/);
});

test("one turn larger than the bound is cut within, as a last resort: its beginning is kept, the rest said to be left out, the outcome kept", () => {
  const { events, outputs } = manyToolRun(3_000, 10);
  for (const format of ["md", "html"] as const) {
    const summary = renderSummary(events, plain(outputs), { format, maxBytes: 100_000 });
    assert.ok(Buffer.byteLength(summary) <= 100_000, `${format}: ${Buffer.byteLength(summary)}`);
    const text = format === "md" ? markdownText(summary) : summary.replace(/<[^>]+>/g, "");
    assert.match(text, /Turn 1: task/);
    assert.match(text, /PROSE-1-END/, "the turn's beginning is kept");
    assert.doesNotMatch(text, /PROSE-3000-END/);
    assert.match(text, /Left out: the rest of entry 1 \([\d,]+ of its [\d,]+ parts\), to stay under 100,000 bytes\./);
    assert.match(text, /Outcome/);
    assert.match(text, /abc123/);
  }
});

test("a summary of more entries than fit leaves out the latest ones and says so, cutting the first that does not fit within", () => {
  const log = logBuilder();
  log.add("run.created", { number: 8, task: "many turns", agent: "fake", repo: { root: "/repo", dirty: false } });
  for (let turn = 1; turn <= 400; turn += 1) {
    log.add("turn.started", { session: "s", turn, reason: "task" });
    log.add("agent.message", { session: "s", turn, text: `turn ${turn} says ${"w".repeat(300)}` });
    log.add("agent.message", { session: "s", turn, text: `TURN-${turn}-SECOND ${"v".repeat(300)}` });
    log.add("turn.completed", { session: "s", turn, stop_reason: "end_turn", duration_ms: 1 });
  }
  const summary = renderSummary(log.events, plain(new Map()), { format: "md", maxBytes: 30_000 });
  assert.ok(Buffer.byteLength(summary) <= 30_000);
  const text = markdownText(summary);
  assert.match(text, /Turn 1: task\n[\s\S]*turn 1 says/);
  assert.match(text, /Left out: (the last [\d,]+ of 400 entries|the rest of entry [\d,]+ \(\d+ of its \d+ parts\) and the [\d,]+ entries after it, of 400)/);
  assert.doesNotMatch(text, /Turn 400:/);
  assert.match(text, /Outcome/);
});

test("turns show their reason, tokens and cost, the three costliest are marked, and stages are sections", () => {
  const log = logBuilder();
  log.add("run.created", { number: 3, task: "do it", agent: "fake", workflow: "plan-build", repo: { root: "/r", dirty: false } });
  const costs = [0.5, 0.1, 0.9, 0.3, 0.7];
  let total = 0;
  costs.forEach((cost, index) => {
    const stage = { id: index < 2 ? "plan" : "build", visit: 1 };
    const turn = index + 1;
    log.add("turn.started", { session: "s", turn, reason: index === 0 ? "task" : "resend" }, stage);
    total += cost;
    log.add("usage.updated", { session: "s", basis: "total", cost_usd: total }, stage);
    log.add("turn.completed", { session: "s", turn, stop_reason: "end_turn", duration_ms: 1_500, usage: { input_tokens: 100 * turn, output_tokens: 10 } }, stage);
  });
  log.add("stage.completed", { stage: "build", visit: 1, outcome: "succeeded", duration_ms: 1, exit_code: 0, preview: "all tests pass" }, { id: "build", visit: 1 });
  const md = renderTranscript(log.events, plain(new Map()), "md");
  assert.match(md, /## Stage plan\n[\s\S]*### Turn 1\\: task[\s\S]*## Stage build\n[\s\S]*### Turn 3\\: resend/);
  const text = markdownText(md);
  assert.match(text, /Turn 3: resend\nCostliest turn 1 of 3 · 300 tokens in, 10 out · \$0\.9000/);
  assert.match(text, /Turn 5: resend\nCostliest turn 2 of 3/);
  assert.match(text, /Turn 1: task\nCostliest turn 3 of 3/);
  assert.doesNotMatch(text, /Turn 2: resend\nCostliest/);
  assert.match(text, /Result: Stage build succeeded, exit code 0/);
});

test("a subagent's calls nest inside the call that started them, and a compaction shows where it happened", () => {
  const log = logBuilder();
  log.add("run.created", { number: 4, task: "t", agent: "claude", repo: { root: "/r", dirty: false } });
  log.add("turn.started", { session: "s", turn: 1, reason: "task" });
  log.add("tool.started", { session: "s", call: "task_1", tool: "Task", kind: "think", title: "explore" });
  log.add("tool.started", { session: "s", call: "grep_1", tool: "Grep", kind: "search", title: "inner grep", parent_call: "task_1" });
  log.add("tool.completed", { session: "s", call: "grep_1", tool: "Grep", status: "completed", is_error: false, duration_ms: 2, output_chars: 0 });
  log.add("agent.compacted", { session: "s", inferred: true, context_before: 150_000, context_after: 20_000 });
  log.add("tool.completed", { session: "s", call: "task_1", tool: "Task", status: "completed", is_error: false, duration_ms: 9, output_chars: 0 });
  log.add("turn.completed", { session: "s", turn: 1, stop_reason: "end_turn", duration_ms: 10 });
  const md = renderTranscript(log.events, plain(new Map()), "md");
  assert.match(md, /<details><summary>Tool: Task · explore · completed · 9 ms<\/summary>\n\n<details><summary>Tool: Grep · inner grep · completed · 2 ms<\/summary>/);
  assert.match(markdownText(md), /context was compacted \(inferred from its context readings\) \(context 150,000 → 20,000 tokens\)/);
  assert.match(md, /## Outcome\n\nThe run has not ended\\\./);
});

test("validation results are in the outcome: each command passed or failed, its round, exit code, time and where its output is; a fix round is a note where it happened", () => {
  const log = logBuilder();
  log.add("run.created", { number: 6, task: "t", agent: "fake", repo: { root: "/r", dirty: false } });
  log.add("turn.started", { session: "s", turn: 1, reason: "task" });
  log.add("turn.completed", { session: "s", turn: 1, stop_reason: "end_turn", duration_ms: 10 });
  log.add("validation.completed", { command: "npm test", passed: false, exit_code: 1, duration_ms: 2_500, round: 0, output_file: "outputs/validation-0-1.txt" });
  log.add("validation.completed", { command: "npm run lint <img src=x>", passed: true, exit_code: 0, duration_ms: 300, round: 0 });
  log.add("validation.fix_requested", { round: 1, max_rounds: 2, commands: ["npm test"] });
  log.add("turn.started", { session: "s", turn: 2, reason: "handback" });
  log.add("turn.completed", { session: "s", turn: 2, stop_reason: "end_turn", duration_ms: 10 });
  log.add("validation.completed", { command: "npm test", passed: true, exit_code: 0, duration_ms: 2_000, round: 1, timed_out: false });
  log.add("run.completed", { status: "succeeded", usage: { input_tokens: 0, output_tokens: 0 }, active_ms: 1, duration_ms: 5_000 });
  const md = renderTranscript(log.events, plain(new Map()), "md");
  const text = markdownText(md);
  assert.match(text, /Note: Validation failed: the agent is asked to fix it \(round 1 of 2\): npm test[\s\S]*Turn 2/);
  const outcome = text.slice(text.indexOf("Outcome"));
  assert.match(outcome, /Validation\s+Failed npm test \(the task, exit code 1, 2\.5 s\); output: \.baton\/runs\/run_x\/outputs\/validation-0-1\.txt\s+Passed npm run lint <img src=x> \(the task, exit code 0, 300 ms\)\s+Passed npm test \(fix round 1, exit code 0, 2\.0 s\)/);
  assert.doesNotMatch(md, /(?<!\\)<img/, "a command is foreign text too: escaped");
  // The outcome is never left out: the results are in the smallest summary as well.
  assert.match(markdownText(renderSummary(log.events, plain(new Map()), { format: "md", maxBytes: 4_000, completeTranscript: "t.md" })), /Passed npm test \(fix round 1/);
});

test("an output is cut at 8,192 bytes", () => {
  const { events, outputs } = manyToolRun(1, 50_000);
  const md = renderTranscript(events, plain(outputs), "md");
  const pre = /<pre>\n([\s\S]*?)\n<\/pre>/g;
  const blocks = [...md.matchAll(pre)].map((m) => m[1] ?? "");
  assert.equal(Buffer.byteLength(blocks[1] ?? ""), MAX_TOOL_OUTPUT_BYTES);
});

test("both files folded once are the transcript and the summary each render gives, fitting or not, in either format", () => {
  for (const format of ["md", "html"] as const) {
    for (const [tools, maxBytes] of [[5, 1_000_000], [150, 400_000]] as const) {
      const { events, outputs } = manyToolRun(tools, 10_000);
      const options = { format, maxBytes, completeTranscript: `transcript.${format}` };
      const both = renderTranscriptAndSummary(events, plain(outputs), options);
      assert.equal(both.transcript, renderTranscript(events, plain(outputs), format));
      assert.equal(both.summary, renderSummary(events, plain(outputs), options));
      if (tools === 5) assert.ok(both.summary.includes("Complete transcript") && both.summary.length > both.transcript.length, "the summary that fits is the transcript with its pointer");
    }
  }
});

test("a summary laid out tighter reads each output from the trace store once, however many steps it takes", () => {
  const { events, outputs } = manyToolRun(150, 10_000);
  const reads = new Map<string, number>();
  const counting = { ...plain(outputs), readOutput: (file: string) => (reads.set(file, (reads.get(file) ?? 0) + 1), outputs.get(file)) };
  const both = renderTranscriptAndSummary(events, counting, { format: "md", maxBytes: 40_000, completeTranscript: "transcript.md" });
  assert.ok(Buffer.byteLength(both.summary) <= 40_000 && both.summary.length < both.transcript.length, "the summary went down the ladder");
  assert.equal(both.summary, renderSummary(events, plain(outputs), { format: "md", maxBytes: 40_000, completeTranscript: "transcript.md" }));
  assert.equal(reads.size, 150);
  assert.deepEqual([...new Set(reads.values())], [1], "each output read once");
});

test("an output its preview holds whole is shown from the event as the output; a cut preview without its file says only the preview was there", () => {
  const log = logBuilder();
  log.add("run.created", { number: 3, task: "short outputs", agent: "fake", repo: { root: "/r", dirty: false } });
  log.add("turn.started", { session: "s", turn: 1, reason: "task" });
  log.add("tool.started", { session: "s", call: "c_1", tool: "bash", kind: "execute" });
  log.add("tool.completed", { session: "s", call: "c_1", tool: "bash", status: "completed", is_error: false, duration_ms: 1, output_chars: 11, preview: "SHORT-WHOLE" });
  log.add("tool.started", { session: "s", call: "c_2", tool: "bash", kind: "execute" });
  log.add("tool.completed", { session: "s", call: "c_2", tool: "bash", status: "completed", is_error: false, duration_ms: 1, output_chars: 5_000, preview: "CUT-PREVIEW" });
  log.add("turn.completed", { session: "s", turn: 1, stop_reason: "end_turn", duration_ms: 2 });
  log.add("run.completed", { status: "succeeded", usage: { input_tokens: 1, output_tokens: 1 }, active_ms: 2, duration_ms: 2 });
  const text = markdownText(renderTranscript(log.events, plain(new Map()), "md"));
  assert.ok(text.includes("SHORT-WHOLE") && text.includes("CUT-PREVIEW"));
  assert.equal(text.split("Only the preview was available").length - 1, 1, "said once, of the cut preview alone");
  assert.ok(text.indexOf("Only the preview was available") > text.indexOf("CUT-PREVIEW"));
});
