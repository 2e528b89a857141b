import assert from "node:assert/strict";
import { test } from "node:test";
import { Redactor, StreamRedactor } from "../redaction/redactor.ts";
import { AcpEventMapper, CANCELLED_TURN_RULE } from "./event-mapper.ts";

type Recorded = { type: string; data: Record<string, unknown>; ephemeral: boolean };

function setup(secrets: string[] = []) {
  const events: Recorded[] = [];
  const traced: Array<{ call: string; output: string }> = [];
  const claims: string[] = [];
  let clock = 1000;
  const redactor = new Redactor(secrets);
  const mapper = new AcpEventMapper({
    trace: {
      write: (call, output) => {
        traced.push({ call, output });
        return { file: `outputs/${call}.txt` };
      },
      reserve: (call) => claims.push(`reserve ${call}`),
      release: (call) => claims.push(`release ${call}`),
    },
    redactText: (text) => redactor.redactText(text),
    sink: {
      append: (type, data) => events.push({ type, data, ephemeral: false }),
      publish: (type, data) => events.push({ type, data, ephemeral: true }),
    },
    cwd: "/repo",
    now: () => (clock += 5),
    newStreamRedactor: () => new StreamRedactor(redactor),
  });
  mapper.session = "ses_1";
  const update = (u: Record<string, unknown>) => mapper.onMessage("recv", { jsonrpc: "2.0", method: "session/update", params: { sessionId: "ses_1", update: u } });
  const chunk = (text: string, kind = "agent_message_chunk") => update({ sessionUpdate: kind, content: { type: "text", text } });
  return { events, traced, claims, mapper, update, chunk, durable: () => events.filter((e) => !e.ephemeral) };
}

test("chunks stream as ephemeral deltas and join into one durable message at the turn's end", () => {
  const { mapper, chunk, events, durable } = setup();
  mapper.onMessage("send", { jsonrpc: "2.0", id: 3, method: "session/prompt", params: {} });
  mapper.beginTurn("task");
  chunk("Hello, ");
  chunk("world");
  mapper.onMessage("recv", { jsonrpc: "2.0", id: 3, result: { stopReason: "end_turn" } });
  assert.deepEqual(
    events.filter((e) => e.ephemeral).map((e) => e.data["text"]),
    ["Hello, ", "world"],
  );
  assert.deepEqual(durable().map((e) => e.type), ["turn.started", "agent.message", "turn.completed"]);
  assert.equal(durable()[1]?.data["text"], "Hello, world");
  assert.equal(durable()[2]?.data["stop_reason"], "end_turn");
});

test("a change of kind or a tool call is a boundary; tool calls pair by id with duration, exit code and preview", () => {
  const { mapper, chunk, update, durable } = setup();
  mapper.beginTurn("task");
  chunk("pondering", "agent_thought_chunk");
  chunk("I will run it");
  update({ sessionUpdate: "tool_call", toolCallId: "t1", title: "Run ls", kind: "execute", status: "pending", rawInput: { command: "ls" } });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: "a\nb" } }], rawOutput: { exit_code: 0 } });
  const types = durable().map((e) => e.type);
  assert.deepEqual(types, ["turn.started", "agent.thought", "agent.message", "tool.started", "tool.completed"]);
  const started = durable()[3]?.data;
  assert.equal(started?.["target"], "ls");
  const completed = durable()[4]?.data;
  assert.equal(completed?.["call"], "t1");
  assert.equal(completed?.["exit_code"], 0);
  assert.equal(completed?.["preview"], "a\nb");
  assert.equal(completed?.["output_chars"], 3);
  assert.equal(completed?.["duration_ms"], 5);
});

test("a diff reports file.changed relative to the workspace", () => {
  const { update, durable } = setup();
  update({ sessionUpdate: "tool_call", toolCallId: "w", kind: "edit", locations: [{ path: "/repo/src/a.ts" }] });
  update({ sessionUpdate: "tool_call_update", toolCallId: "w", status: "completed", content: [{ type: "diff", path: "/repo/src/a.ts", oldText: null, newText: "x" }] });
  assert.deepEqual(durable().find((e) => e.type === "file.changed")?.data, { path: "src/a.ts", change: "added" });
  assert.equal(durable().find((e) => e.type === "tool.started")?.data["target"], "src/a.ts");
});

test("permission request and answer pair by JSON-RPC id and carry the deciding rule", () => {
  const { mapper, durable } = setup();
  mapper.onMessage("recv", {
    jsonrpc: "2.0",
    id: 7,
    method: "session/request_permission",
    params: { sessionId: "ses_1", toolCall: { toolCallId: "t9", kind: "execute" }, options: [{ optionId: "ok", kind: "allow_once", name: "Allow" }] },
  });
  mapper.decisions.set("t9", { rule: "default", by: "policy" });
  mapper.onMessage("send", { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "selected", optionId: "ok" } } });
  assert.deepEqual(durable().map((e) => e.type), ["permission.requested", "permission.resolved"]);
  assert.deepEqual(durable()[1]?.data, { session: "ses_1", call: "t9", decision: "allow_once", option_id: "ok", by: "policy", rule: "default" });
});

test("updates and methods Baton does not translate become runner.event with the native type only", () => {
  const { mapper, update, durable } = setup();
  update({ sessionUpdate: "something_new", secret_payload: "x" });
  mapper.onMessage("recv", { jsonrpc: "2.0", method: "_auth/status_update", params: { token: "x" } });
  assert.deepEqual(
    durable().map((e) => e.data),
    [
      { session: "ses_1", native_type: "session/update:something_new" },
      { session: "ses_1", native_type: "_auth/status_update" },
    ],
  );
});

test("usage: context and cost as a total, prompt-response tokens as a delta", () => {
  const { mapper, update, durable } = setup();
  mapper.onMessage("send", { jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} });
  mapper.beginTurn("task");
  update({ sessionUpdate: "usage_update", used: 100, size: 1000, cost: { amount: 0.5, currency: "USD" } });
  mapper.onMessage("recv", { jsonrpc: "2.0", id: 1, result: { stopReason: "end_turn", usage: { inputTokens: 10, outputTokens: 4, totalTokens: 14 } } });
  const usage = durable().filter((e) => e.type === "usage.updated").map((e) => e.data);
  assert.deepEqual(usage, [
    { session: "ses_1", basis: "total", context_used: 100, context_size: 1000, cost_usd: 0.5 },
    { session: "ses_1", basis: "delta", input_tokens: 10, output_tokens: 4 },
  ]);
  assert.deepEqual(mapper.usage, { input_tokens: 10, output_tokens: 4 });
});

test("closing while a tool call and a turn are open ends both, so every start has an end", () => {
  const { mapper, update, chunk, durable } = setup();
  mapper.beginTurn("task");
  update({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "execute" });
  chunk("partial");
  mapper.closeOpen("failed", { code: "agent_exited", message: "gone" });
  const types = durable().map((e) => e.type);
  assert.deepEqual(types, ["turn.started", "tool.started", "agent.message", "tool.completed", "turn.completed"]);
  assert.equal(durable()[3]?.data["status"], "failed");
  assert.deepEqual(durable()[4]?.data["error"], { code: "agent_exited", message: "gone" });
});

test("a turn that ends cancelled before Baton's answer to its permission question is on the wire: the question ends cancelled first, once", () => {
  const { mapper, durable } = setup();
  mapper.onMessage("send", { jsonrpc: "2.0", id: 2, method: "session/prompt", params: {} });
  mapper.beginTurn("task");
  const ask = { sessionId: "ses_1", toolCall: { toolCallId: "t9", kind: "execute" }, options: [{ optionId: "ok", kind: "allow_once", name: "Allow" }] };
  mapper.onMessage("recv", { jsonrpc: "2.0", id: 7, method: "session/request_permission", params: ask });
  mapper.onMessage("recv", { jsonrpc: "2.0", id: 2, result: { stopReason: "cancelled" } });
  mapper.onMessage("send", { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "cancelled" } } });
  assert.deepEqual(durable().map((e) => e.type), ["turn.started", "permission.requested", "permission.resolved", "turn.completed"]);
  assert.deepEqual(durable()[2]?.data, { session: "ses_1", call: "t9", decision: "cancelled", by: "policy", rule: CANCELLED_TURN_RULE });
  assert.equal(durable()[3]?.data["stop_reason"], "cancelled");
});

test("a turn that ends otherwise leaves its open permission question to its answer", () => {
  const { mapper, durable } = setup();
  mapper.onMessage("send", { jsonrpc: "2.0", id: 2, method: "session/prompt", params: {} });
  mapper.beginTurn("task");
  mapper.onMessage("recv", { jsonrpc: "2.0", id: 7, method: "session/request_permission", params: { sessionId: "ses_1", toolCall: { toolCallId: "t9", kind: "execute" }, options: [] } });
  mapper.onMessage("recv", { jsonrpc: "2.0", id: 2, result: { stopReason: "end_turn" } });
  mapper.decisions.set("t9", { rule: "default", by: "policy" });
  mapper.onMessage("send", { jsonrpc: "2.0", id: 7, result: { outcome: { outcome: "cancelled" } } });
  assert.deepEqual(durable().map((e) => e.type), ["turn.started", "permission.requested", "turn.completed", "permission.resolved"]);
});

test("an error answer to the prompt ends the turn with stop reason error", () => {
  const { mapper, durable } = setup();
  mapper.onMessage("send", { jsonrpc: "2.0", id: 2, method: "session/prompt", params: {} });
  mapper.beginTurn("task");
  mapper.onMessage("recv", { jsonrpc: "2.0", id: 2, error: { code: -32603, message: "overloaded" } });
  const completed = durable().at(-1)?.data;
  assert.equal(completed?.["stop_reason"], "error");
  assert.deepEqual(completed?.["error"], { code: "acp_error_-32603", message: "overloaded" });
});

test("an update before the answer to session/new is recorded under the session it names; nothing before a session gets an empty one", () => {
  const events: Recorded[] = [];
  const redactor = new Redactor([]);
  const mapper = new AcpEventMapper({
    sink: { append: (type, data) => events.push({ type, data, ephemeral: false }), publish: () => {} },
    cwd: "/repo",
    now: () => 0,
    newStreamRedactor: () => new StreamRedactor(redactor),
  });
  mapper.onMessage("recv", { jsonrpc: "2.0", method: "_auth/status_update", params: {} });
  mapper.onMessage("recv", { jsonrpc: "2.0", method: "session/update", params: { sessionId: "ses_early", update: { sessionUpdate: "available_commands_update" } } });
  assert.deepEqual(
    events.map((e) => e.data),
    [{ native_type: "_auth/status_update" }, { session: "ses_early", native_type: "session/update:available_commands_update" }],
  );
});

test("a tool call's whole output goes to the trace; the event carries its file, full length and a redacted 200-character preview", () => {
  const { update, durable, traced } = setup(["sk-live-0123456789"]);
  const output = `key=sk-live-0123456789 ${"x".repeat(500)}`;
  update({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "execute", rawInput: { command: "env" } });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: output } }] });
  assert.deepEqual(traced, [{ call: "t1", output }]);
  const completed = durable().find((e) => e.type === "tool.completed")?.data;
  assert.equal(completed?.["output_file"], "outputs/t1.txt");
  assert.equal(completed?.["output_chars"], output.length);
  assert.equal(String(completed?.["preview"]).length, 200);
  assert.match(String(completed?.["preview"]), /^key=\[REDACTED\] x+$/);
});

test("a call without output has no trace file", () => {
  const { update, durable, traced } = setup();
  update({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "think" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed" });
  assert.deepEqual(traced, []);
  assert.equal(durable().find((e) => e.type === "tool.completed")?.data["output_file"], undefined);
});

test("a diff's output is a unified diff from oldText and newText", () => {
  const { update, traced, durable } = setup();
  update({ sessionUpdate: "tool_call", toolCallId: "w", kind: "edit" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "w", status: "completed", content: [{ type: "diff", path: "/repo/a.txt", oldText: "1\n2\n3\n", newText: "1\ntwo\n3\n" }] });
  // Shorter than a preview: the event holds all of it.
  assert.equal(durable().find((e) => e.type === "tool.completed")?.data["preview"], "--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n 1\n-2\n+two\n 3");
  assert.deepEqual(traced, []);
});

test("an output its preview holds whole gets no trace file: the event has it all (output_chars is the preview's length)", () => {
  const { update, durable, traced } = setup(["sk-live-0123456789"]);
  update({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "execute" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: [{ type: "content", content: { type: "text", text: "x".repeat(200) } }] });
  // One character more than a preview holds: the file has the whole of it.
  update({ sessionUpdate: "tool_call", toolCallId: "t2", kind: "execute" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed", content: [{ type: "content", content: { type: "text", text: "y".repeat(201) } }] });
  // Redaction that changes the length: the preview no longer matches output_chars, so the file is written.
  update({ sessionUpdate: "tool_call", toolCallId: "t3", kind: "execute" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t3", status: "completed", content: [{ type: "content", content: { type: "text", text: "key=sk-live-0123456789" } }] });
  const completed = durable().filter((e) => e.type === "tool.completed").map((e) => e.data);
  assert.deepEqual(traced.map((t) => t.call), ["t2", "t3"]);
  assert.equal(completed[0]?.["output_file"], undefined);
  assert.equal(completed[0]?.["preview"], "x".repeat(200));
  assert.equal(completed[0]?.["output_chars"], 200);
  assert.equal(completed[1]?.["output_file"], "outputs/t2.txt");
  assert.equal(completed[2]?.["output_file"], "outputs/t3.txt");
  assert.equal(completed[2]?.["preview"], "key=[REDACTED]");
});

test("file.changed: from diffs and from edit, delete and move locations; once per path and change per turn; none for a failed call", () => {
  const { mapper, update, durable } = setup();
  const call = (id: string, kind: string, locations: string[], status = "completed", content: unknown[] = []) => {
    update({ sessionUpdate: "tool_call", toolCallId: id, kind, locations: locations.map((path) => ({ path })) });
    update({ sessionUpdate: "tool_call_update", toolCallId: id, status, content });
  };
  mapper.beginTurn("task");
  call("w1", "edit", ["/repo/a.txt"], "completed", [{ type: "diff", path: "/repo/a.txt", oldText: null, newText: "1" }]);
  call("w2", "edit", ["/repo/a.txt"], "completed", [{ type: "diff", path: "/repo/a.txt", oldText: "1", newText: "2" }]);
  call("w3", "edit", ["/repo/b.txt"]);
  call("w4", "edit", ["/repo/b.txt"]);
  call("d1", "delete", ["/repo/c.txt"]);
  call("m1", "move", ["/repo/d.txt", "/repo/sub/e.txt"]);
  call("x1", "edit", ["/repo/refused.txt"], "failed");
  call("a1", "delete", ["/repo/a.txt"]);
  const changes = () => durable().filter((e) => e.type === "file.changed").map((e) => `${String(e.data["change"])} ${String(e.data["path"])}`);
  assert.deepEqual(changes(), ["added a.txt", "modified b.txt", "deleted c.txt", "deleted d.txt", "added sub/e.txt", "deleted a.txt"]);
  mapper.beginTurn("task");
  call("w5", "edit", ["/repo/b.txt"]);
  assert.equal(changes().at(-1), "modified b.txt", "a new turn reports the path again");
  assert.equal(changes().length, 7);
});

test("a context reading below half of the last is logged as an inferred agent.compacted, after its usage.updated", () => {
  const { mapper, update, durable } = setup();
  mapper.onMessage("send", { jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} });
  mapper.beginTurn("task");
  update({ sessionUpdate: "usage_update", used: 150_000, size: 200_000 });
  update({ sessionUpdate: "usage_update", used: 140_000, size: 200_000 });
  update({ sessionUpdate: "usage_update", used: 30_000, size: 200_000 });
  const types = durable().map((e) => e.type);
  assert.deepEqual(types.slice(-4), ["usage.updated", "usage.updated", "usage.updated", "agent.compacted"]);
  assert.deepEqual(durable().at(-1)?.data, { session: "ses_1", turn: 1, inferred: true, context_before: 140_000, context_after: 30_000 });
});

test("a compaction the agent reports (a tool call titled Compacting context, then Context compacted) is logged as it says, not inferred again from the drop", () => {
  const { mapper, update, durable } = setup();
  mapper.onMessage("send", { jsonrpc: "2.0", id: 1, method: "session/prompt", params: {} });
  mapper.beginTurn("task");
  update({ sessionUpdate: "usage_update", used: 150_000, size: 200_000 });
  update({ sessionUpdate: "tool_call", toolCallId: "k1", kind: "other", title: "Compacting context", status: "in_progress" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "k1", title: "Context compacted", status: "completed" });
  update({ sessionUpdate: "usage_update", used: 20_000, size: 200_000 });
  const compactions = durable().filter((e) => e.type === "agent.compacted");
  assert.deepEqual(compactions.map((e) => e.data), [{ session: "ses_1", turn: 1, inferred: false, context_before: 150_000 }]);
  const types = durable().map((e) => e.type);
  assert.equal(types.indexOf("agent.compacted"), types.indexOf("tool.completed") + 1, "right after the call that reported it");
  // A call of another title, or one that failed, reports no compaction.
  update({ sessionUpdate: "tool_call", toolCallId: "k2", kind: "other", title: "Compacting context", status: "in_progress" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "k2", status: "failed" });
  update({ sessionUpdate: "tool_call", toolCallId: "k3", kind: "read", title: "Read compacting-context.md", status: "completed" });
  assert.equal(durable().filter((e) => e.type === "agent.compacted").length, 1);
});

test("a subagent's tool call names the call that started it as parent_call, where the agent says so", () => {
  const { update, durable } = setup();
  update({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "think", title: "Task" });
  update({ sessionUpdate: "tool_call", toolCallId: "t2", kind: "search", title: "grep", _meta: { claudeCode: { toolName: "Grep", parentToolUseId: "t1" } } });
  const started = durable().filter((e) => e.type === "tool.started").map((e) => e.data["parent_call"]);
  assert.deepEqual(started, [undefined, "t1"]);
});

test("a call's trace file is claimed while it runs, and given up when it ends without output, with an output its preview holds, or never ends", () => {
  const { mapper, update, claims, traced } = setup();
  const long = (text: string) => [{ type: "content", content: { type: "text", text: text.repeat(300) } }];
  mapper.beginTurn("task");
  update({ sessionUpdate: "tool_call", toolCallId: "t1", kind: "execute", status: "pending", rawInput: { command: "ls" } });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "in_progress" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t1", status: "completed", content: long("a") });
  update({ sessionUpdate: "tool_call", toolCallId: "t2", kind: "execute", status: "pending" });
  update({ sessionUpdate: "tool_call_update", toolCallId: "t2", status: "completed" });
  // A call that starts and ends in one update has nothing to claim ahead.
  update({ sessionUpdate: "tool_call", toolCallId: "t3", kind: "read", status: "completed", content: long("b") });
  update({ sessionUpdate: "tool_call", toolCallId: "t4", kind: "execute", status: "in_progress" });
  mapper.closeOpen("cancelled");
  assert.deepEqual(claims, ["reserve t1", "reserve t1", "reserve t2", "release t2", "reserve t4", "release t4"]);
  assert.deepEqual(traced.map((t) => t.call), ["t1", "t3"]);
});

test("a call is claimed a file ahead only while the last call of its kind needed one", () => {
  const { update, claims, traced } = setup();
  const call = (id: string, kind: string, text: string) => {
    update({ sessionUpdate: "tool_call", toolCallId: id, kind, status: "pending" });
    update({ sessionUpdate: "tool_call_update", toolCallId: id, status: "completed", content: [{ type: "content", content: { type: "text", text } }] });
  };
  call("e1", "edit", "short diff");
  call("e2", "edit", "short again");
  call("r1", "read", "z".repeat(500));
  call("e3", "edit", "d".repeat(500));
  call("e4", "edit", "short");
  // The first edit is claimed (none has finished yet) and its short output gives the claim up; the
  // next is not claimed; a read is, on its own; the long edit e3 is written without a claim, and
  // makes the edit after it claimed again.
  assert.deepEqual(claims, ["reserve e1", "release e1", "reserve r1", "reserve e4", "release e4"]);
  assert.deepEqual(traced.map((t) => t.call), ["r1", "e3"]);
});