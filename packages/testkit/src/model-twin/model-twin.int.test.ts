import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { test } from "node:test";
import { testTempDir } from "@baton/protocol/testing";
import { modelTwinBinPath } from "./index.ts";
import { ModelTwin } from "./model-twin.ts";
import type { TwinRequestRecord } from "./request-log.ts";
import { at, post } from "./twin-test-client.ts";

const chat = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "bash" } }] };

test("every request is logged as NDJSON and in memory, credentials redacted", async () => {
  const logFile = join(await testTempDir("twin-log-"), "requests.ndjson");
  await using twin = await ModelTwin.start({ scenario: { name: "run", command: "ls" }, logFile });
  await post(`${twin.url}/v1/chat/completions`, chat, { authorization: "Bearer sk-secret-1234", "x-api-key": "sk-ant-5678" });
  await post(`${twin.url}/v1beta/models/g:generateContent?key=AIza-secret`, { contents: [] });
  await fetch(`${twin.url}/v2/nothing`);
  const lines = (await readFile(logFile, "utf8")).trim().split("\n");
  const fromFile = lines.map((line) => JSON.parse(line) as TwinRequestRecord);
  assert.deepEqual(fromFile, JSON.parse(JSON.stringify(twin.requests)));
  const [first, second, third] = fromFile;
  assert.equal(first?.seq, 1);
  assert.equal(first?.method, "POST");
  assert.equal(first?.path, "/v1/chat/completions");
  assert.equal(first?.headers.authorization, "[REDACTED]");
  assert.equal(first?.headers["x-api-key"], "[REDACTED]");
  assert.equal(first?.headers["content-type"], "application/json");
  assert.deepEqual(first?.body, chat);
  assert.equal(first?.api, "openai-chat");
  assert.equal(first?.role, "main");
  assert.equal(first?.scenario, "run");
  assert.equal(first?.status, 200);
  assert.deepEqual(first?.reply, { kind: "tool", name: "bash", args: { command: "ls" } });
  assert.equal(second?.path, "/v1beta/models/g:generateContent?key=[REDACTED]");
  assert.equal(second?.role, "auxiliary");
  assert.deepEqual([third?.role, third?.status, third?.api], ["unknown", 404, null]);
  assert.doesNotMatch(await readFile(logFile, "utf8"), /secret|sk-ant/);
});

test("an unknown path gets a 404 JSON error; discovery calls get OpenAI's model list", async () => {
  await using twin = await ModelTwin.start({ models: ["a", "b"] });
  const missing = await fetch(`${twin.url}/v1/embeddings`, { method: "POST", body: "{}" });
  assert.equal(missing.status, 404);
  assert.deepEqual(await missing.json(), { error: { type: "not_found", message: "the model twin does not serve POST /v1/embeddings" } });
  const models = await (await fetch(`${twin.url}/v1/models`)).json();
  assert.deepEqual(at(models, "data"), [
    { id: "a", object: "model", created: 0, owned_by: "baton-model-twin" },
    { id: "b", object: "model", created: 0, owned_by: "baton-model-twin" },
  ]);
  const bad = await fetch(`${twin.url}/v1/chat/completions`, { method: "POST", body: "not json" });
  assert.equal(bad.status, 400);
  assert.match(String(at(await bad.json(), "error", "message")), /not a JSON object/);
});

test("the control API switches the scenario, refuses a bad one, and reads and clears the log", async () => {
  await using twin = await ModelTwin.start();
  assert.deepEqual(await (await fetch(`${twin.url}/_twin/scenario`)).json(), { scenario: { name: "text" } });
  const switched = await post(`${twin.url}/_twin/scenario`, { name: "write", path: "x.txt" });
  assert.equal(switched.status, 200);
  assert.equal(twin.scenario.name, "write");
  assert.deepEqual(at(await switched.json(), "scenario"), { name: "write", path: "x.txt", content: "written by the model twin\n" });
  const refused = await post(`${twin.url}/_twin/scenario`, { name: "wirte" });
  assert.equal(refused.status, 400);
  assert.deepEqual(await refused.json(), { error: { code: "bad_scenario", message: 'unknown scenario "wirte"; known: text, write, run, steps, by_prompt' } });
  assert.equal(twin.scenario.name, "write");
  await post(`${twin.url}/v1/chat/completions`, chat);
  const logged = (await (await fetch(`${twin.url}/_twin/requests`)).json()) as TwinRequestRecord[];
  assert.deepEqual(logged.map((r) => r.path), ["/v1/chat/completions"]);
  assert.equal((await fetch(`${twin.url}/_twin/requests`, { method: "DELETE" })).status, 204);
  assert.deepEqual(twin.requests, []);
  assert.equal((await fetch(`${twin.url}/_twin/nope`)).status, 404);
});

test("a by_prompt scenario answers each session after its prompt: a plan in text, then a write, with no switch between them", async () => {
  const scenario = {
    name: "by_prompt" as const,
    cases: [
      { contains: "[plan]", scenario: { name: "text" as const, reply: "1. write a.txt" } },
      { contains: "[implement]", scenario: { name: "write" as const, path: "a.txt", content: "a\n", reply: "Wrote it." } },
    ],
  };
  await using twin = await ModelTwin.start({ scenario });
  const ask = (prompt: string, extra: object[] = []) => post(`${twin.url}/v1/chat/completions`, { ...chat, tools: [{ type: "function", function: { name: "write" } }], messages: [{ role: "user", content: prompt }, ...extra] });
  await ask("[plan] How would you add a.txt?");
  await ask("[implement] Add a.txt.");
  await ask("[implement] Add a.txt.", [{ role: "assistant", tool_calls: [{ id: "c1", type: "function", function: { name: "write", arguments: "{}" } }] }, { role: "tool", tool_call_id: "c1", content: "ok" }]);
  await ask("Something else.");
  assert.deepEqual(
    twin.requests.map((r) => r.reply),
    [
      { kind: "text", text: "1. write a.txt" },
      { kind: "tool", name: "write", args: { path: "a.txt", content: "a\n" } },
      { kind: "text", text: "Wrote it." },
      { kind: "text", text: "Done: the model twin has nothing more to do." },
    ],
  );
  assert.deepEqual(twin.requests.map((r) => r.scenario), ["by_prompt", "by_prompt", "by_prompt", "by_prompt"]);
});

test("an unknown scenario given to the constructor is a clear error", async () => {
  await assert.rejects(ModelTwin.start({ scenario: "wirte" as "text" }), { name: "ScenarioError", message: /unknown scenario "wirte"/ });
});

test("close() ends promptly while a stalled stream holds its socket", async () => {
  const twin = await ModelTwin.start({ scenario: { name: "text", fault: { kind: "stall", afterChunks: 1 } } });
  const response = await post(`${twin.url}/v1/chat/completions`, { ...chat, stream: true });
  const reading = response.text().catch((error: unknown) => error);
  // The stall never ends by itself: close() either ends it or never returns. The deadline
  // only bounds how long a failure takes to show.
  const deadline = new Promise<"still waiting">((resolve) => setTimeout(resolve, 30_000, "still waiting").unref());
  assert.equal(await Promise.race([twin.close().then(() => "closed" as const), deadline]), "closed", "close waited on the stalled stream");
  assert.ok((await reading) instanceof Error, "the stalled body should end in an error");
});

test("the bin prints its base URL, serves, and exits on SIGTERM; a bad scenario exits 2 with one line", async () => {
  const logFile = join(await testTempDir("twin-bin-"), "log.ndjson");
  const child = spawn(process.execPath, [modelTwinBinPath, "--port", "0", "--scenario", "write", "--path", "b.txt", "--log", logFile]);
  const [line] = (await once(createInterface({ input: child.stdout }), "line")) as [string];
  assert.match(line, /^http:\/\/127\.0\.0\.1:\d+$/);
  const body = await (await post(`${line}/v1/chat/completions`, { ...chat, tools: [{ type: "function", function: { name: "write" } }] })).json();
  assert.deepEqual(JSON.parse(String(at(body, "choices", 0, "message", "tool_calls", 0, "function", "arguments"))), { path: "b.txt", content: "written by the model twin\n" });
  child.kill("SIGTERM");
  const [code] = (await once(child, "close")) as [number];
  assert.equal(code, 0);
  assert.equal((await readFile(logFile, "utf8")).trim().split("\n").length, 1);

  const bad = spawn(process.execPath, [modelTwinBinPath, "--scenario", "wirte"]);
  let stderr = "";
  bad.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  const [badCode] = (await once(bad, "close")) as [number];
  assert.equal(badCode, 2);
  assert.equal(stderr, '--scenario: unknown scenario "wirte"; known: text, write, run, steps, by_prompt\n');
});
