import assert from "node:assert/strict";
import { test } from "node:test";
import { costOf, priceOf } from "./pricing.ts";
import { UsageTap } from "./usage-tap.ts";

/** Feeds `text` to a tap in pieces of `size` characters: a frame can be split anywhere. */
function tapped(api: ConstructorParameters<typeof UsageTap>[0], stream: boolean, text: string, size = 7): UsageTap {
  const tap = new UsageTap(api, stream);
  for (let i = 0; i < text.length; i += size) tap.push(Buffer.from(text.slice(i, i + size)));
  tap.end();
  return tap;
}

test("Anthropic: input from message_start, output from the last message_delta, cache tokens apart", () => {
  const sse = [
    `event: message_start\ndata: {"type":"message_start","message":{"model":"claude-sonnet-4-5","usage":{"input_tokens":120,"cache_read_input_tokens":900,"cache_creation_input_tokens":40,"output_tokens":1}}}\n\n`,
    `event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"hi"}}\n\n`,
    `event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":37}}\n\n`,
  ].join("");
  const tap = tapped("anthropic_messages", true, sse);
  assert.deepEqual(tap.usage, { inputTokens: 120, outputTokens: 37, cacheReadTokens: 900, cacheWriteTokens: 40 });
  assert.equal(tap.model, "claude-sonnet-4-5");
  assert.deepEqual(tapped("anthropic_messages", false, `{"model":"m","usage":{"input_tokens":5,"output_tokens":6}}`).usage, { inputTokens: 5, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0 });
});

test("a stream split inside a character is read whole: bytes are decoded a line at a time", () => {
  const sse = `event: message_start\ndata: {"type":"message_start","message":{"model":"modèle-ünïcode","usage":{"input_tokens":3,"output_tokens":1}}}\n\nevent: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":4}}\n\n`;
  const bytes = Buffer.from(sse);
  for (const size of [1, 2, 3, 5]) {
    const tap = new UsageTap("anthropic_messages", true);
    for (let i = 0; i < bytes.length; i += size) tap.push(bytes.subarray(i, i + size));
    tap.end();
    assert.equal(tap.model, "modèle-ünïcode", `pieces of ${size} bytes`);
    assert.deepEqual(tap.usage, { inputTokens: 3, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 });
  }
});

test("OpenAI chat: usage in the last chunk before [DONE], cached tokens out of the input", () => {
  const sse = `data: {"choices":[{"delta":{"content":"x"}}]}\r\n\r\ndata: {"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":9,"prompt_tokens_details":{"cached_tokens":60}}}\r\n\r\ndata: [DONE]\r\n\r\n`;
  assert.deepEqual(tapped("openai_chat", true, sse).usage, { inputTokens: 40, outputTokens: 9, cacheReadTokens: 60, cacheWriteTokens: 0 });
});

test("OpenAI Responses: usage of response.completed", () => {
  const sse = `event: response.created\ndata: {"type":"response.created","response":{"model":"gpt-5"}}\n\nevent: response.completed\ndata: {"type":"response.completed","response":{"model":"gpt-5","usage":{"input_tokens":300,"output_tokens":20,"input_tokens_details":{"cached_tokens":100}}}}\n\n`;
  const tap = tapped("openai_responses", true, sse, 3);
  assert.deepEqual(tap.usage, { inputTokens: 200, outputTokens: 20, cacheReadTokens: 100, cacheWriteTokens: 0 });
  assert.equal(tap.model, "gpt-5");
});

test("Gemini: the last usageMetadata holds, thoughts count as output; no usage is not seen", () => {
  const sse = `data: {"candidates":[],"usageMetadata":{"promptTokenCount":50}}\n\ndata: {"candidates":[],"usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":8,"thoughtsTokenCount":4},"modelVersion":"gemini-2.5-flash"}\n\n`;
  const tap = tapped("gemini", true, sse);
  assert.deepEqual(tap.usage, { inputTokens: 50, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0 });
  assert.equal(tap.model, "gemini-2.5-flash");
  assert.equal(tapped("gemini", true, "data: not json\n\n").seen, false);
});

test("prices: config over the table by longest prefix, a provider prefix ignored, unknown models unpriced", () => {
  assert.equal(priceOf("claude-sonnet-4-5-20250929").source, "table");
  assert.equal(priceOf("anthropic/claude-sonnet-4-5").price?.input, 3);
  assert.equal(priceOf("gpt-5-mini").price?.input, 0.25);
  assert.deepEqual(priceOf("claude-sonnet-4-5", { "claude-sonnet": { input: 1, output: 2 } }), { price: { input: 1, output: 2 }, source: "config" });
  assert.deepEqual(priceOf("twin-model"), { price: undefined, source: "unpriced" });
  const cost = costOf({ inputTokens: 1_000_000, outputTokens: 100_000, cacheReadTokens: 1_000_000, cacheWriteTokens: 0 }, { input: 3, output: 15, cache_read: 0.3 });
  assert.equal(Math.round(cost * 1000) / 1000, 4.8);
});

test("the tool calls a model asked for, in each wire format", () => {
  const anthropic = `event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_1","name":"Write","input":{}}}\n\n`;
  assert.deepEqual([...tapped("anthropic_messages", true, anthropic).toolCalls.values()], ["Write"]);
  const chat = `data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"write","arguments":""}}]}}]}\n\ndata: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}\n\n`;
  assert.deepEqual([...tapped("openai_chat", true, chat).toolCalls.values()], ["write"]);
  const responses = `data: {"type":"response.output_item.done","item":{"type":"function_call","call_id":"c1","name":"exec_command"}}\n\ndata: {"type":"response.completed","response":{"output":[{"type":"function_call","call_id":"c1","name":"exec_command"}]}}\n\n`;
  assert.deepEqual([...tapped("openai_responses", true, responses).toolCalls.entries()], [["c1", "exec_command"]]);
  const gemini = `data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"write_file","args":{}}}]}}]}\n\n`;
  assert.deepEqual([...tapped("gemini", true, gemini).toolCalls.values()], ["write_file"]);
});

test("whole frames in one piece: text frames are skipped, usage and tool calls among them are read, a line left open waits for its end", () => {
  const tap = new UsageTap("anthropic_messages", true);
  tap.push(Buffer.from(`event: message_start\ndata: {"type":"message_start","message":{"model":"claude-sonnet-4-5","usage":{"input_tokens":7,"output_tokens":1}}}\n\n`));
  tap.push(Buffer.from(`event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"type":"text_delta","text":"a"}}\n\n`));
  tap.push(Buffer.from(`event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"t1","name":"Bash"}}\n\nevent: message_delta\ndata: {"type":"message_delta","usa`));
  assert.equal(tap.usage.outputTokens, 1);
  tap.push(Buffer.from(`ge":{"output_tokens":12}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`));
  tap.end();
  assert.deepEqual(tap.usage, { inputTokens: 7, outputTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 0 });
  assert.deepEqual([...tap.toolCalls], [["t1", "Bash"]]);
});
