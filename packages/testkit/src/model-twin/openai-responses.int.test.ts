import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ModelTwin } from "./model-twin.ts";
import { at, dataOf, post, postSse } from "./twin-test-client.ts";

let twin: ModelTwin;
let url: string;
before(async () => {
  twin = await ModelTwin.start();
  url = `${twin.url}/v1/responses`;
});
after(() => twin.close());

const EXEC_TOOL = {
  type: "function",
  name: "exec_command",
  parameters: { type: "object", properties: { cmd: { type: "string" }, workdir: { type: "string" }, yield_time_ms: { type: "number" } }, required: ["cmd"] },
};
const input = [
  { type: "message", role: "developer", content: [{ type: "input_text", text: "<permissions instructions>…</permissions instructions>" }] },
  { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>" }] },
  { type: "message", role: "user", content: [{ type: "input_text", text: "make a file" }] },
];

test("text: the event sequence of a Responses stream, deltas joining to the reply", async () => {
  twin.setScenario({ name: "text", reply: "Plain answer here." });
  const events = await postSse(url, { model: "gpt-x", stream: true, instructions: "You are Codex.", input, tools: [EXEC_TOOL] });
  assert.deepEqual(
    [...new Set(events.map((e) => e.event))],
    [
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ],
  );
  assert.ok(events.every((e) => at(e.data, "type") === e.event));
  assert.equal(dataOf(events, "response.output_text.delta").map((d) => at(d, "delta")).join(""), "Plain answer here.");
  const completed = dataOf(events, "response.completed")[0];
  assert.equal(at(completed, "response", "status"), "completed");
  assert.equal(at(completed, "response", "output", 0, "content", 0, "text"), "Plain answer here.");
  assert.equal(typeof at(completed, "response", "usage", "input_tokens"), "number");
});

test("run: a function call of exec_command, arguments streamed as deltas", async () => {
  twin.setScenario({ name: "run", command: "ls -la" });
  const events = await postSse(url, { model: "gpt-x", stream: true, input, tools: [{ type: "web_search" }, EXEC_TOOL] });
  const added = dataOf(events, "response.output_item.added")[0];
  assert.equal(at(added, "item", "type"), "function_call");
  assert.equal(at(added, "item", "name"), "exec_command");
  const args = dataOf(events, "response.function_call_arguments.delta").map((d) => at(d, "delta")).join("");
  assert.deepEqual(JSON.parse(args), { cmd: "ls -la" });
  const done = dataOf(events, "response.output_item.done")[0];
  assert.equal(at(done, "item", "arguments"), args);
  assert.equal(at(done, "item", "call_id"), at(added, "item", "call_id"));
  assert.equal(events.at(-1)?.event, "response.completed");
});

test("write falls back to a shell command that writes the file at the cwd from the environment context", async () => {
  twin.setScenario({ name: "write", path: "n.txt", content: "x" });
  const body = await (await post(url, { model: "gpt-x", input, tools: [EXEC_TOOL] })).json();
  assert.equal(at(body, "object"), "response");
  assert.deepEqual(JSON.parse(String(at(body, "output", 0, "arguments"))), { cmd: "mkdir -p '/repo' && printf '%s' 'x' > '/repo/n.txt'" });
});

test("a function_call_output in the input ends the tool calls", async () => {
  twin.setScenario({ name: "run", command: "ls", reply: "Listed." });
  const followUp = [
    ...input,
    { type: "function_call", call_id: "call_1", name: "exec_command", arguments: '{"cmd":"ls"}' },
    { type: "function_call_output", call_id: "call_1", output: "a.txt" },
  ];
  const events = await postSse(url, { model: "gpt-x", stream: true, input: followUp, tools: [EXEC_TOOL] });
  assert.equal(dataOf(events, "response.output_text.delta").map((d) => at(d, "delta")).join(""), "Listed.");
});
