import assert from "node:assert/strict";
import { test } from "node:test";
import type { Envelope } from "@baton/protocol/core";
import { GEN_AI } from "./gen-ai-conventions.ts";
import { spanIdOf, traceIdOf } from "./span-ids.ts";
import type { SpanRecord } from "./span-record.ts";
import { RunSpanTree } from "./span-tree.ts";
import { SCRIPTED_RUN, scriptedWorkflowRun } from "./testing/scripted-run.ts";

function spansOf(events: Envelope[], options: ConstructorParameters<typeof RunSpanTree>[1] = {}): SpanRecord[] {
  const tree = new RunSpanTree(SCRIPTED_RUN, options);
  return events.flatMap((event) => tree.push(event));
}

/** The tree without ids and times: each span's name, kind, parent's name, status, and the attributes asked for. */
function normalized(spans: SpanRecord[], keys: readonly string[]) {
  const names = new Map(spans.map((span) => [span.spanId, span.name]));
  return spans.map((span) => ({
    name: span.name,
    kind: span.kind,
    parent: span.parentSpanId === undefined ? undefined : names.get(span.parentSpanId),
    status: span.status.code,
    attributes: Object.fromEntries(keys.filter((key) => span.attributes[key] !== undefined).map((key) => [key, span.attributes[key]])),
    events: span.events.map((event) => event.name),
  }));
}

const KEYS = [GEN_AI.operationName, GEN_AI.agentName, GEN_AI.workflowName, GEN_AI.conversationId, GEN_AI.requestModel, GEN_AI.responseModel, GEN_AI.usageInputTokens, GEN_AI.usageOutputTokens, GEN_AI.usageCacheReadInputTokens, GEN_AI.toolName, GEN_AI.toolCallId, GEN_AI.responseFinishReasons, GEN_AI.errorType, GEN_AI.processExitCode];

test("a scripted workflow run becomes the expected span tree: run, stages, invoke_agent per turn, execute_tool per call, nested where the agent says so", () => {
  const spans = spansOf(scriptedWorkflowRun());
  assert.deepEqual(normalized(spans, KEYS), [
    { name: "execute_tool Bash", kind: "internal", parent: "execute_tool Task", status: "unset", attributes: { [GEN_AI.operationName]: "execute_tool", [GEN_AI.toolName]: "Bash", [GEN_AI.toolCallId]: "toolu_2", [GEN_AI.processExitCode]: 0 }, events: ["permission.requested", "permission.resolved"] },
    { name: "execute_tool Task", kind: "internal", parent: "invoke_agent claude", status: "error", attributes: { [GEN_AI.operationName]: "execute_tool", [GEN_AI.toolName]: "Task", [GEN_AI.toolCallId]: "toolu_1", [GEN_AI.errorType]: "failed" }, events: [] },
    {
      name: "invoke_agent claude",
      kind: "client",
      parent: "stage plan",
      status: "unset",
      attributes: { [GEN_AI.operationName]: "invoke_agent", [GEN_AI.agentName]: "claude", [GEN_AI.conversationId]: "ses_1", [GEN_AI.requestModel]: "sonnet", [GEN_AI.responseModel]: "claude-sonnet-4", [GEN_AI.usageInputTokens]: 1200, [GEN_AI.usageOutputTokens]: 300, [GEN_AI.usageCacheReadInputTokens]: 50, [GEN_AI.responseFinishReasons]: ["end_turn"] },
      events: ["retry.scheduled"],
    },
    { name: "stage plan", kind: "internal", parent: "invoke_workflow plan-check", status: "unset", attributes: {}, events: [] },
    { name: "stage check", kind: "internal", parent: "invoke_workflow plan-check", status: "error", attributes: { [GEN_AI.errorType]: "command_failed" }, events: [] },
    { name: "invoke_workflow plan-check", kind: "internal", parent: undefined, status: "error", attributes: { [GEN_AI.operationName]: "invoke_workflow", [GEN_AI.agentName]: "claude", [GEN_AI.workflowName]: "plan-check", [GEN_AI.requestModel]: "sonnet", [GEN_AI.usageInputTokens]: 1200, [GEN_AI.usageOutputTokens]: 300, [GEN_AI.errorType]: "stage_failed" }, events: [] },
  ]);
});

test("times come from the events' at, ids from the run id and each span's first seq", () => {
  const events = scriptedWorkflowRun();
  const spans = spansOf(events);
  const bash = spans.find((span) => span.name === "execute_tool Bash");
  assert.equal(bash?.startMs, Date.parse(events[7]?.at ?? ""));
  assert.equal(bash?.endMs, Date.parse(events[10]?.at ?? ""));
  assert.equal(bash?.spanId, spanIdOf(SCRIPTED_RUN, 8));
  assert.ok(spans.every((span) => span.traceId === traceIdOf(SCRIPTED_RUN)));
  assert.match(traceIdOf(SCRIPTED_RUN), /^[0-9a-f]{32}$/);
  assert.match(spanIdOf(SCRIPTED_RUN, 1), /^[0-9a-f]{16}$/);
  assert.equal(new Set(spans.map((span) => span.spanId)).size, spans.length);
  assert.deepEqual(spansOf(events), spans, "the same events give the same spans");
});

test("no content by default: prose, arguments, output and the task are in no attribute; context occupancy never feeds gen_ai.usage", () => {
  const spans = spansOf(scriptedWorkflowRun());
  const everything = JSON.stringify(spans);
  for (const text of ["private", "secret task text"]) assert.ok(!everything.includes(text), text);
  assert.ok(!everything.includes("150000"), "context_used is not usage");
});

test("capture_content records redacted, capped prose, arguments and output", () => {
  const spans = spansOf(scriptedWorkflowRun(), { captureContent: true, redact: (text) => text.replace("private", "[redacted]") });
  const turn = spans.find((span) => span.name === "invoke_agent claude");
  assert.equal(turn?.attributes[GEN_AI.outputMessages], JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "[redacted] prose" }] }]));
  const task = spans.find((span) => span.name === "execute_tool Task");
  assert.equal(task?.attributes[GEN_AI.toolCallArguments], '{"prompt":"[redacted] argument"}');
  assert.equal(spans.find((span) => span.name === "execute_tool Bash")?.attributes[GEN_AI.toolCallResult], "[redacted] output");
});

test("spans still open at the run's end are ended with it, marked not_ended", () => {
  const events = scriptedWorkflowRun().filter((event) => event.type !== "tool.completed" && event.type !== "turn.completed" && event.type !== "stage.completed");
  const spans = spansOf(events);
  const bash = spans.find((span) => span.name === "execute_tool Bash");
  assert.equal(bash?.attributes[GEN_AI.errorType], "not_ended");
  assert.equal(bash?.endMs, Date.parse(events.at(-1)?.at ?? ""));
});

test("each model call the proxy saw is a chat span inside its turn: started duration_ms before its event, provider, model, tokens when reported, a failed call an error", () => {
  const events = scriptedWorkflowRun();
  const plan = { id: "plan", visit: 1 };
  const call = (seq: number, data: Record<string, unknown>): Envelope => ({ v: 1, run: SCRIPTED_RUN, seq, at: events[5]?.at ?? "", type: "model.request.completed", data, stage: plan });
  const base = { provider: "anthropic", api: "anthropic_messages", model: "claude-sonnet-4", stream: true, ttfb_ms: 40, duration_ms: 250, cache_read_tokens: 7, cache_write_tokens: 0, cost_source: "table", tool_calls: ["Bash"] };
  const chats = [
    call(6, { ...base, request_id: "req_1", status: 200, input_tokens: 900, output_tokens: 120, usage_reported: true, cost_usd: 0.01 }),
    call(6, { ...base, request_id: "req_2", provider: "gemini", api: "gemini", model: "gemini-2.5-pro", status: 529, input_tokens: 0, output_tokens: 0, usage_reported: false, cost_usd: 0 }),
    call(6, { ...base, request_id: "req_3", status: null, input_tokens: 0, output_tokens: 0, usage_reported: false, cost_usd: 0, error: "ECONNRESET" }),
  ];
  // Inserted after the agent's message (seq 6), renumbered so seqs stay unique.
  const log = [...events.slice(0, 6), ...chats, ...events.slice(6)].map((event, index) => ({ ...event, seq: index + 1 }));
  const spans = spansOf(log);
  const byName = (name: string) => spans.filter((span) => span.name === name);
  const turn = byName("invoke_agent claude")[0];
  const [ok] = byName("chat claude-sonnet-4");
  assert.equal(ok?.kind, "client");
  assert.equal(ok?.parentSpanId, turn?.spanId, "inside the turn it happened in");
  assert.equal(ok?.spanId, spanIdOf(SCRIPTED_RUN, 7));
  assert.equal(ok?.endMs, Date.parse(events[5]?.at ?? ""));
  assert.equal(ok?.startMs, Date.parse(events[5]?.at ?? "") - 250);
  assert.deepEqual(ok?.attributes, {
    [GEN_AI.operationName]: "chat",
    [GEN_AI.providerName]: "anthropic",
    [GEN_AI.requestModel]: "claude-sonnet-4",
    [GEN_AI.conversationId]: "ses_1",
    [GEN_AI.usageInputTokens]: 900,
    [GEN_AI.usageOutputTokens]: 120,
    [GEN_AI.usageCacheReadInputTokens]: 7,
    [GEN_AI.usageCacheCreationInputTokens]: 0,
    [GEN_AI.httpStatusCode]: 200,
    "baton.model.request_id": "req_1",
    "baton.model.api": "anthropic_messages",
    "baton.model.stream": true,
    "baton.model.ttfb_ms": 40,
    "baton.cost_usd": 0.01,
    "baton.cost_source": "table",
  });
  assert.equal(ok?.status.code, "unset");
  const [overloaded] = byName("chat gemini-2.5-pro");
  assert.equal(overloaded?.attributes[GEN_AI.providerName], "gcp.gemini");
  assert.equal(overloaded?.attributes[GEN_AI.usageInputTokens], undefined, "no tokens where the answer reported none");
  assert.deepEqual([overloaded?.status.code, overloaded?.attributes[GEN_AI.errorType]], ["error", "529"]);
  const failed = byName("chat claude-sonnet-4")[1];
  assert.deepEqual([failed?.status, failed?.attributes[GEN_AI.errorType], failed?.attributes[GEN_AI.httpStatusCode]], [{ code: "error", message: "ECONNRESET" }, "connection_failed", undefined]);
  assert.equal(spans.length, spansOf(events).length + 3);
});

test("a model call the proxy refused is an event on its turn; a chat span outside any turn belongs to its stage, or to the run", () => {
  const events = scriptedWorkflowRun();
  const refused: Envelope = { v: 1, run: SCRIPTED_RUN, seq: 6, at: events[5]?.at ?? "", type: "model.request.refused", data: { request_id: "req_9", provider: "openai", api: "openai_chat", model: "gpt-5", status: 403, limit: "cost", message: "the run's cost budget" }, stage: { id: "plan", visit: 1 } };
  const outside: Envelope = { v: 1, run: SCRIPTED_RUN, seq: 3, at: events[2]?.at ?? "", type: "model.request.completed", data: { request_id: "req_0", provider: "openai", api: "openai_chat", model: "gpt-5", stream: false, status: 200, duration_ms: 5, input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0, usage_reported: true, cost_usd: 0, cost_source: "unpriced" } };
  const log = [...events.slice(0, 2), outside, ...events.slice(2, 5), refused, ...events.slice(5)].map((event, index) => ({ ...event, seq: index + 1 }));
  const spans = spansOf(log);
  assert.deepEqual(spans.find((span) => span.name === "invoke_agent claude")?.events.map((event) => event.name), ["model.request.refused", "retry.scheduled"]);
  const chat = spans.find((span) => span.name === "chat gpt-5");
  assert.equal(chat?.parentSpanId, spans.find((span) => span.name === "invoke_workflow plan-check")?.spanId);
});

test("the agent's question is a pair of events on the tool call it belongs to, its message and the person's answer kept out without capture_content", () => {
  const events = scriptedWorkflowRun();
  const at = events.findIndex((event) => event.type === "tool.started" && event.data["call"] === "toolu_2");
  const stage = events[at]?.stage;
  const when = events[at]?.at ?? "";
  const asked: Envelope = { v: 1, run: SCRIPTED_RUN, seq: 0, at: when, type: "question.asked", data: { session: "ses_1", id: "q_1", call: "toolu_2", mode: "form", message: "Which database, private one?", fields: [], awaiting: "person", timeout_ms: 1000 }, ...(stage === undefined ? {} : { stage }) };
  const answered: Envelope = { ...asked, type: "question.answered", data: { session: "ses_1", id: "q_1", call: "toolu_2", action: "accept", content: { db: "private" }, by: "human", who: "ada", via: "cli" } };
  const log = [...events.slice(0, at + 1), asked, answered, ...events.slice(at + 1)].map((event, index) => ({ ...event, seq: index + 1 }));
  const bash = spansOf(log).find((span) => span.name === "execute_tool Bash");
  assert.deepEqual(bash?.events.map((event) => event.name), ["question.asked", "question.answered", "permission.requested", "permission.resolved"]);
  const [question, answer] = bash?.events ?? [];
  assert.equal(question?.attributes["baton.id"], "q_1");
  assert.equal(question?.attributes["baton.message"], undefined, "no content by default");
  assert.equal(answer?.attributes["baton.action"], "accept");
  assert.equal(answer?.attributes["baton.who"], "ada");
  assert.ok(!JSON.stringify(bash?.events).includes("private"), "neither the message nor the answer's content");
});
