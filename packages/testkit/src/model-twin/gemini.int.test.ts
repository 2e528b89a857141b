import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { ModelTwin } from "./model-twin.ts";
import { at, dataOf, post, postSse } from "./twin-test-client.ts";

let twin: ModelTwin;
let stream: string;
before(async () => {
  twin = await ModelTwin.start();
  stream = `${twin.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse`;
});
after(() => twin.close());

const declaration = (name: string, properties: Record<string, object>, required: string[]) => ({
  name,
  parametersJsonSchema: { type: "object", properties, required },
});
const WRITE = declaration("write_file", { file_path: { type: "string" }, content: { type: "string" } }, ["file_path", "content"]);
const SHELL = declaration("run_shell_command", { command: { type: "string" }, description: { type: "string" }, dir_path: { type: "string" } }, ["command"]);
const user = { role: "user", parts: [{ text: "write the file" }] };
const partsOf = (chunks: unknown[]) => chunks.flatMap((chunk) => (at(chunk, "candidates", 0, "content", "parts") as unknown[] | undefined) ?? []);

test("text: chunks of parts with text, the last with finishReason STOP and usage", async () => {
  twin.setScenario({ name: "text", reply: "Gemini says hello to you." });
  const chunks = dataOf(await postSse(stream, { contents: [user], tools: [{ functionDeclarations: [WRITE] }] }));
  assert.ok(chunks.length > 1);
  assert.equal(partsOf(chunks).map((part) => at(part, "text")).join(""), "Gemini says hello to you.");
  assert.equal(at(chunks.at(-1), "candidates", 0, "finishReason"), "STOP");
  assert.equal(typeof at(chunks.at(-1), "usageMetadata", "totalTokenCount"), "number");
  assert.equal(at(chunks[0], "modelVersion"), "gemini-x");
});

test("write: a functionCall part for write_file with its arguments", async () => {
  twin.setScenario({ name: "write", path: "g.txt", content: "gee" });
  const system = { parts: [{ text: "- **Workspace Directories:**\n  - /repo\n" }] };
  const chunks = dataOf(await postSse(stream, { systemInstruction: system, contents: [user], tools: [{ functionDeclarations: [SHELL, WRITE] }] }));
  assert.deepEqual(partsOf(chunks), [{ functionCall: { name: "write_file", args: { file_path: "/repo/g.txt", content: "gee" } } }]);
});

test("without write_file, the shell command it sends really writes the file", async () => {
  const dir = await testTempDir("twin-gemini-shell-");
  twin.setScenario({ name: "write", path: join(dir, "sub", "out.txt"), content: "line 'one'\nline two\n" });
  const chunks = dataOf(await postSse(stream, { contents: [user], tools: [{ functionDeclarations: [SHELL] }] }));
  const call = at(partsOf(chunks)[0], "functionCall");
  assert.equal(at(call, "name"), "run_shell_command");
  execFileSync("sh", ["-c", String(at(call, "args", "command"))]);
  assert.equal(await readFile(join(dir, "sub", "out.txt"), "utf8"), "line 'one'\nline two\n");
});

test("a functionResponse ends the tool calls", async () => {
  twin.setScenario({ name: "write", reply: "Saved." });
  const contents = [
    user,
    { role: "model", parts: [{ functionCall: { name: "write_file", args: {} } }] },
    { role: "user", parts: [{ functionResponse: { name: "write_file", response: { output: "ok" } } }] },
  ];
  const chunks = dataOf(await postSse(stream, { contents, tools: [{ functionDeclarations: [WRITE] }] }));
  assert.equal(partsOf(chunks).map((part) => at(part, "text")).join(""), "Saved.");
});

test("the router's generateContent call with a response schema gets JSON that fits it", async () => {
  twin.setScenario("write");
  const responseJsonSchema = {
    type: "object",
    properties: { reasoning: { type: "string" }, model_choice: { type: "string", enum: ["flash", "pro"] } },
    required: ["reasoning", "model_choice"],
  };
  const response = await post(`${twin.url}/v1beta/models/gemini-lite:generateContent`, { contents: [user], generationConfig: { responseJsonSchema } });
  const body = await response.json();
  assert.equal(at(body, "candidates", 0, "finishReason"), "STOP");
  assert.deepEqual(JSON.parse(String(at(body, "candidates", 0, "content", "parts", 0, "text"))), { reasoning: "model twin step", model_choice: "flash" });
});

test("model list, model details and token counts answer in Gemini's shape", async () => {
  const models = await (await fetch(`${twin.url}/v1beta/models`)).json();
  assert.equal(at(models, "models", 0, "name"), "models/twin-model");
  const model = await (await fetch(`${twin.url}/v1beta/models/gemini-x`)).json();
  assert.equal(at(model, "name"), "models/gemini-x");
  const count = await (await post(`${twin.url}/v1beta/models/gemini-x:countTokens`, { contents: [user] })).json();
  assert.equal(typeof at(count, "totalTokens"), "number");
});
