// OpenAI chat completions, POST /v1/chat/completions (OpenCode through @ai-sdk/openai-compatible).
import { asArray, asRecord, collectText, jsonDeltas, textDeltas } from "../conversation.ts";
import type { Conversation, Reply } from "../conversation.ts";
import type { JsonSchema } from "../json-schema-fill.ts";
import type { OfferedTool } from "../tool-choice.ts";
import { openAiErrorBody } from "./openai-errors.ts";
import { sseFrame } from "./wire-api.ts";
import type { ReplyMeta, WireApi } from "./wire-api.ts";

function parse(body: unknown): Conversation {
  const request = asRecord(body);
  const messages = asArray(request.messages).map(asRecord);
  const tools: OfferedTool[] = asArray(request.tools)
    .map(asRecord)
    .filter((tool) => tool.type === "function" || tool.function !== undefined)
    .map((tool) => asRecord(tool.function))
    .map((fn) => ({ name: String(fn.name), parameters: fn.parameters as JsonSchema | undefined }));
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  const format = asRecord(request.response_format);
  return {
    model: String(request.model ?? ""),
    stream: request.stream === true,
    tools,
    system: collectText(messages.filter((m) => m.role === "system" || m.role === "developer")),
    lastUserText: lastUser < 0 ? "" : collectText(messages[lastUser]),
    allText: collectText(messages),
    toolResults: messages.slice(lastUser + 1).filter((message) => message.role === "tool").length,
    responseSchema: format.type === "json_schema" ? (asRecord(format.json_schema).schema as JsonSchema) : undefined,
  };
}

const chunk = (meta: ReplyMeta, delta: Record<string, unknown>, finish: string | null = null) => ({
  id: `chatcmpl-${meta.id}`,
  object: "chat.completion.chunk",
  created: meta.created,
  model: meta.model,
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const usage = (meta: ReplyMeta) => ({
  prompt_tokens: meta.inputTokens,
  completion_tokens: meta.outputTokens,
  total_tokens: meta.inputTokens + meta.outputTokens,
});

function streamFrames(reply: Reply, meta: ReplyMeta): string[] {
  const frames = [sseFrame(chunk(meta, { role: "assistant", content: "" }))];
  if (reply.kind === "text") {
    for (const text of textDeltas(reply.text)) frames.push(sseFrame(chunk(meta, { content: text })));
  } else {
    const [first = "", ...rest] = jsonDeltas(JSON.stringify(reply.call.args));
    const call = { index: 0, id: reply.callId, type: "function", function: { name: reply.call.name, arguments: first } };
    frames.push(sseFrame(chunk(meta, { tool_calls: [call] })));
    for (const args of rest) frames.push(sseFrame(chunk(meta, { tool_calls: [{ index: 0, function: { arguments: args } }] })));
  }
  frames.push(sseFrame({ ...chunk(meta, {}, reply.kind === "text" ? "stop" : "tool_calls"), usage: usage(meta) }));
  frames.push(sseFrame("[DONE]"));
  return frames;
}

function jsonBody(reply: Reply, meta: ReplyMeta): unknown {
  const message =
    reply.kind === "text"
      ? { role: "assistant", content: reply.text }
      : {
          role: "assistant",
          content: null,
          tool_calls: [{ id: reply.callId, type: "function", function: { name: reply.call.name, arguments: JSON.stringify(reply.call.args) } }],
        };
  return {
    id: `chatcmpl-${meta.id}`,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, finish_reason: reply.kind === "text" ? "stop" : "tool_calls" }],
    usage: usage(meta),
  };
}

export const openAiChat: WireApi = { name: "openai-chat", parse, streamFrames, jsonBody, errorBody: openAiErrorBody };
