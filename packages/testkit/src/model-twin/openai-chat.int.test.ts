import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AUXILIARY_REPLY } from "./conversation.ts";
import { ModelTwin } from "./model-twin.ts";
import { at, dataOf, post, postSse } from "./twin-test-client.ts";

let twin: ModelTwin;
let url: string;
before(async () => {
  twin = await ModelTwin.start();
  url = `${twin.url}/v1/chat/completions`;
});
after(() => twin.close());

const WRITE_TOOL = {
  type: "function",
  function: {
    name: "write",
    parameters: { type: "object", properties: { filePath: { type: "string" }, content: { type: "string" } }, required: ["filePath", "content"] },
  },
};
const BASH_TOOL = {
  type: "function",
  function: { name: "bash", parameters: { type: "object", properties: { command: { type: "string" }, description: { type: "string" } }, required: ["command"] } },
};
const system = { role: "system", content: "You are OpenCode.\n<env>\n  Working directory: /repo\n</env>" };
const user = { role: "user", content: "write the file" };

test("text: content deltas join to the reply; finish_reason stop, usage, then [DONE]", async () => {
  twin.setScenario({ name: "text", reply: "Hello there from the twin." });
  const events = await postSse(url, { model: "m", stream: true, messages: [system, user], tools: [WRITE_TOOL] });
  const chunks = dataOf(events);
  assert.equal(chunks.at(-1), "[DONE]");
  const deltas = chunks.slice(0, -1).map((chunk) => at(chunk, "choices", 0, "delta", "content") ?? "");
  assert.ok(deltas.filter((d) => d !== "").length > 1, "expected several deltas");
  assert.equal(deltas.join(""), "Hello there from the twin.");
  const last = chunks.at(-2);
  assert.equal(at(last, "choices", 0, "finish_reason"), "stop");
  assert.equal(at(last, "object"), "chat.completion.chunk");
  assert.equal(at(last, "model"), "m");
  assert.equal(typeof at(last, "usage", "total_tokens"), "number");
});

test("write: a streamed tool call of the offered write tool, arguments filled from its schema", async () => {
  twin.setScenario({ name: "write", path: "notes/a.txt", content: "hi\n" });
  const events = await postSse(url, { model: "m", stream: true, messages: [system, user], tools: [BASH_TOOL, WRITE_TOOL] });
  const calls = dataOf(events)
    .slice(0, -1)
    .flatMap((chunk) => (at(chunk, "choices", 0, "delta", "tool_calls") as unknown[] | undefined) ?? []);
  assert.ok(calls.length > 1, "expected argument deltas");
  assert.equal(at(calls[0], "function", "name"), "write");
  assert.match(String(at(calls[0], "id")), /^call_/);
  const args = calls.map((call) => at(call, "function", "arguments")).join("");
  assert.deepEqual(JSON.parse(args), { filePath: "/repo/notes/a.txt", content: "hi\n" });
  assert.equal(at(dataOf(events).at(-2), "choices", 0, "finish_reason"), "tool_calls");
});

test("once the request holds the tool result, the twin stops calling tools and answers text", async () => {
  twin.setScenario({ name: "write", reply: "All done." });
  const assistant = { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "write", arguments: "{}" } }] };
  const result = { role: "tool", tool_call_id: "call_1", content: "Wrote file successfully." };
  const response = await post(url, { model: "m", messages: [system, user, assistant, result], tools: [WRITE_TOOL] });
  const body = await response.json();
  assert.equal(at(body, "object"), "chat.completion");
  assert.equal(at(body, "choices", 0, "message", "content"), "All done.");
  assert.equal(at(body, "choices", 0, "finish_reason"), "stop");
});

test("steps play one per tool result: write, then run, then the final text", async () => {
  twin.setScenario({ name: "steps", steps: [{ write: { path: "a.txt", content: "a" } }, { run: "cat a.txt" }], reply: "Finished." });
  const result = (id: string) => [
    { role: "assistant", content: null, tool_calls: [{ id, type: "function", function: { name: "x", arguments: "{}" } }] },
    { role: "tool", tool_call_id: id, content: "ok" },
  ];
  const ask = async (messages: unknown[]) => (await (await post(url, { model: "m", messages, tools: [WRITE_TOOL, BASH_TOOL] })).json()) as unknown;
  const first = await ask([system, user]);
  assert.equal(at(first, "choices", 0, "message", "tool_calls", 0, "function", "name"), "write");
  const second = await ask([system, user, ...result("c1")]);
  assert.equal(at(second, "choices", 0, "message", "tool_calls", 0, "function", "name"), "bash");
  assert.deepEqual(JSON.parse(String(at(second, "choices", 0, "message", "tool_calls", 0, "function", "arguments"))), { command: "cat a.txt" });
  const third = await ask([system, user, ...result("c1"), ...result("c2")]);
  assert.equal(at(third, "choices", 0, "message", "content"), "Finished.");
  // A new user message starts a new turn: the steps play again.
  const again = await ask([system, user, ...result("c1"), ...result("c2"), { role: "assistant", content: "Finished." }, user]);
  assert.equal(at(again, "choices", 0, "message", "tool_calls", 0, "function", "name"), "write");
});

test("a call it does not recognise as the conversation (a title, no tools) gets plain text", async () => {
  twin.setScenario("write");
  twin.clearRequests();
  const title = { role: "system", content: "You are a title generator. You output ONLY a thread title." };
  const events = await postSse(url, { model: "m", stream: true, messages: [title, user] });
  assert.equal(dataOf(events).slice(0, -1).map((chunk) => at(chunk, "choices", 0, "delta", "content") ?? "").join(""), AUXILIARY_REPLY);
  const withTools = await post(url, { model: "m", messages: [title, user], tools: [WRITE_TOOL] });
  assert.equal(at(await withTools.json(), "choices", 0, "message", "content"), AUXILIARY_REPLY);
  assert.deepEqual(twin.requests.map((r) => [r.api, r.role]), [["openai-chat", "auxiliary"], ["openai-chat", "auxiliary"]]);
});
