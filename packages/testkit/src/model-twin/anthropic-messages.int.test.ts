import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AUXILIARY_REPLY } from "./conversation.ts";
import { ModelTwin } from "./model-twin.ts";
import { at, dataOf, post, postSse } from "./twin-test-client.ts";

let twin: ModelTwin;
let url: string;
before(async () => {
  twin = await ModelTwin.start();
  url = `${twin.url}/v1/messages?beta=true`;
});
after(() => twin.close());

const headers = { "anthropic-version": "2023-06-01", "x-api-key": "sk-ant-secret-value" };
const WRITE_TOOL = {
  name: "Write",
  input_schema: { type: "object", properties: { file_path: { type: "string" }, content: { type: "string" } }, required: ["file_path", "content"] },
};
const BASH_TOOL = { name: "Bash", input_schema: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } };
const system = [{ type: "text", text: "You are Claude Code.\nPrimary working directory: /repo\nIs directory a git repo: Yes" }];
const user = { role: "user", content: [{ type: "text", text: "write it" }] };

test("text: message_start, a text block streamed in deltas, message_delta with end_turn and usage, message_stop", async () => {
  twin.setScenario({ name: "text", reply: "A streamed answer in parts." });
  const events = await postSse(url, { model: "claude-x", stream: true, system, messages: [user], tools: [WRITE_TOOL] }, headers);
  assert.deepEqual(
    events.map((e) => e.event).filter((name, i, all) => name !== all[i - 1]),
    ["message_start", "content_block_start", "ping", "content_block_delta", "content_block_stop", "message_delta", "message_stop"],
  );
  assert.equal(at(dataOf(events, "message_start")[0], "message", "model"), "claude-x");
  assert.equal(dataOf(events, "content_block_delta").map((d) => at(d, "delta", "text")).join(""), "A streamed answer in parts.");
  const delta = dataOf(events, "message_delta")[0];
  assert.equal(at(delta, "delta", "stop_reason"), "end_turn");
  assert.equal(typeof at(delta, "usage", "output_tokens"), "number");
});

test("write: a tool_use block of Write, input streamed as input_json_delta, absolute path from the system prompt", async () => {
  twin.setScenario({ name: "write", path: "b.txt", content: "bee\n" });
  const events = await postSse(url, { model: "claude-x", stream: true, system, messages: [user], tools: [BASH_TOOL, WRITE_TOOL] }, headers);
  const start = dataOf(events, "content_block_start")[0];
  assert.equal(at(start, "content_block", "type"), "tool_use");
  assert.equal(at(start, "content_block", "name"), "Write");
  assert.match(String(at(start, "content_block", "id")), /^call_twin_/);
  const partial = dataOf(events, "content_block_delta").map((d) => at(d, "delta", "partial_json")).join("");
  assert.deepEqual(JSON.parse(partial), { file_path: "/repo/b.txt", content: "bee\n" });
  assert.equal(at(dataOf(events, "message_delta")[0], "delta", "stop_reason"), "tool_use");
});

test("a tool_result block ends the tool calls; not streamed, the reply is one message", async () => {
  twin.setScenario({ name: "write", reply: "Written." });
  const messages = [
    user,
    { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Write", input: {} }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "ok" }, { type: "text", text: "<system-reminder>…</system-reminder>" }] },
  ];
  const body = await (await post(url, { model: "claude-x", system, messages, tools: [WRITE_TOOL] }, headers)).json();
  assert.equal(at(body, "type"), "message");
  assert.equal(at(body, "stop_reason"), "end_turn");
  assert.deepEqual(at(body, "content"), [{ type: "text", text: "Written." }]);
});

test("side calls get plain text: a title without tools, a suggestion-mode prediction with tools", async () => {
  twin.setScenario("write");
  const title = await postSse(url, { model: "haiku", stream: true, system: "Generate a concise title for this conversation.", messages: [user] }, headers);
  assert.equal(dataOf(title, "content_block_delta").map((d) => at(d, "delta", "text")).join(""), AUXILIARY_REPLY);
  const suggestion = { role: "user", content: [{ type: "text", text: "[SUGGESTION MODE: predict what the user will type next]" }] };
  const body = await (await post(url, { model: "claude-x", system, messages: [suggestion], tools: [WRITE_TOOL] }, headers)).json();
  assert.deepEqual(at(body, "content"), [{ type: "text", text: AUXILIARY_REPLY }]);
});

test("token counting and the model list answer in Anthropic's shape", async () => {
  const count = await (await post(`${twin.url}/v1/messages/count_tokens`, { model: "m", messages: [user] }, headers)).json();
  assert.equal(typeof at(count, "input_tokens"), "number");
  const models = await (await fetch(`${twin.url}/v1/models`, { headers })).json();
  assert.equal(at(models, "data", 0, "type"), "model");
  assert.equal(at(models, "has_more"), false);
});
