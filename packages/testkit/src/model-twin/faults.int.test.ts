import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { ModelTwin } from "./model-twin.ts";
import { at, post } from "./twin-test-client.ts";

let twin: ModelTwin;
before(async () => {
  twin = await ModelTwin.start();
});
after(() => twin.close());

const chatTool = { type: "function", function: { name: "bash", parameters: { type: "object", properties: { command: { type: "string" } } } } };
const chat = (stream = false) => ({ model: "m", stream, messages: [{ role: "user", content: "hi" }], tools: [chatTool] });
const chatUrl = () => `${twin.url}/v1/chat/completions`;

test("429 with retry-after and OpenAI's error body, for the first N requests only", async () => {
  twin.setScenario({ name: "text", fault: { kind: "status", status: 429, retryAfter: 1.5, times: 2 } });
  for (let i = 0; i < 2; i++) {
    const response = await post(chatUrl(), chat());
    assert.equal(response.status, 429);
    assert.equal(response.headers.get("retry-after"), "2");
    assert.equal(response.headers.get("retry-after-ms"), "1500");
    assert.deepEqual(await response.json(), {
      error: { message: "model twin: injected 429", type: "rate_limit_error", param: null, code: "rate_limit_exceeded" },
    });
  }
  assert.equal((await post(chatUrl(), chat())).status, 200);
  assert.deepEqual(
    twin.requests.slice(-3).map((r) => [r.status, r.fault]),
    [
      [429, "status"],
      [429, "status"],
      [200, undefined],
    ],
  );
});

test("each API's error body has its provider's shape", async () => {
  const anthropic = { model: "m", messages: [{ role: "user", content: "hi" }], tools: [{ name: "Bash", input_schema: { type: "object" } }] };
  twin.setScenario({ name: "text", fault: { kind: "status", status: 529, message: "Overloaded" } });
  const overloaded = await post(`${twin.url}/v1/messages`, anthropic);
  assert.equal(overloaded.status, 529);
  assert.deepEqual(await overloaded.json(), { type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
  twin.setScenario({ name: "text", fault: { kind: "status", status: 500 } });
  const gemini = { contents: [{ role: "user", parts: [{ text: "hi" }] }], tools: [{ functionDeclarations: [{ name: "run_shell_command" }] }] };
  const internal = await post(`${twin.url}/v1beta/models/g:streamGenerateContent?alt=sse`, gemini);
  assert.deepEqual(await internal.json(), { error: { code: 500, message: "model twin: injected 500", status: "INTERNAL" } });
  twin.setScenario({ name: "text", fault: { kind: "status", status: 401 } });
  assert.equal(at(await (await post(`${twin.url}/v1/responses`, { model: "m", input: "hi", tools: [{ type: "function", name: "shell" }] })).json(), "error", "code"), "invalid_api_key");
  twin.setScenario({ name: "text", fault: { kind: "status", status: 402 } });
  assert.equal(at(await (await post(chatUrl(), chat())).json(), "error", "type"), "insufficient_quota");
});

test("a fault on the main conversation spares side calls unless it says on: any", async () => {
  twin.setScenario({ name: "text", fault: { kind: "status", status: 500 } });
  const sideCall = { model: "m", messages: [{ role: "user", content: "title please" }] };
  assert.equal((await post(chatUrl(), sideCall)).status, 200);
  assert.equal((await post(chatUrl(), chat())).status, 500);
  twin.setScenario({ name: "text", fault: { kind: "status", status: 500, on: "any" } });
  assert.equal((await post(chatUrl(), sideCall)).status, 500);
});

test("reset: the connection is reset before any byte of the reply", async () => {
  twin.setScenario({ name: "text", fault: { kind: "reset", times: 1 } });
  const error = await post(chatUrl(), chat(true)).then(
    () => assert.fail("expected the request to fail"),
    (e: unknown) => e as Error & { cause?: { code?: string } },
  );
  assert.match(String(error.cause?.code), /ECONNRESET|UND_ERR_SOCKET/);
  assert.equal(twin.requests.at(-1)?.status, null);
  assert.equal(twin.requests.at(-1)?.fault, "reset");
  assert.equal((await post(chatUrl(), chat(true))).status, 200);
});

test("stall: some chunks arrive, then nothing, with the socket held open", async () => {
  twin.setScenario({ name: "text", reply: "one two three four five six", fault: { kind: "stall", afterChunks: 2 } });
  const response = await post(chatUrl(), chat(true));
  assert.equal(response.status, 200);
  const reader = response.body!.getReader();
  let received = "";
  const decoder = new TextDecoder();
  while ((received.match(/\n\n/g) ?? []).length < 2) {
    const { done, value } = await reader.read();
    if (done) assert.fail(`the stream ended instead of stalling: ${received}`);
    received += decoder.decode(value);
  }
  const next = await Promise.race([reader.read().then(() => "more"), new Promise((resolve) => setTimeout(resolve, 300, "silence"))]);
  assert.equal(next, "silence");
  assert.equal((received.match(/^data: /gm) ?? []).length, 2);
  assert.doesNotMatch(received, /\[DONE\]/);
  await reader.cancel();
});

test("slow: every chunk waits its delay", async () => {
  twin.setScenario({ name: "text", reply: "a b c", fault: { kind: "slow", delayMs: 40 } });
  const started = performance.now();
  const text = await (await post(chatUrl(), chat(true))).text();
  const frames = (text.match(/^data: /gm) ?? []).length;
  assert.ok(frames >= 5, `expected at least 5 frames, got ${frames}`);
  assert.ok(performance.now() - started >= frames * 40 - 5, "the stream was not slowed");
});

test("switching the scenario restarts the fault count", async () => {
  const scenario = { name: "text", fault: { kind: "status", status: 503, times: 1 } } as const;
  twin.setScenario(scenario);
  assert.equal((await post(chatUrl(), chat())).status, 503);
  assert.equal((await post(chatUrl(), chat())).status, 200);
  twin.setScenario(scenario);
  assert.equal((await post(chatUrl(), chat())).status, 503);
});
