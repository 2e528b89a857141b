// Anthropic Messages, POST /v1/messages (claude-agent-acp through ANTHROPIC_BASE_URL).
import { asArray, asRecord, collectText, jsonDeltas, textDeltas } from "../conversation.ts";
import type { Conversation, Reply } from "../conversation.ts";
import type { JsonSchema } from "../json-schema-fill.ts";
import { sseFrame } from "./wire-api.ts";
import type { ReplyMeta, WireApi } from "./wire-api.ts";

const blocksOf = (message: Record<string, unknown>) => asArray(message.content).map(asRecord);
const hasToolResult = (message: Record<string, unknown>) => blocksOf(message).some((block) => block.type === "tool_result");

function parse(body: unknown): Conversation {
  const request = asRecord(body);
  const messages = asArray(request.messages).map(asRecord);
  // A user message holding tool results is the agent's answer to a tool call, not the user speaking.
  const lastUser = messages.findLastIndex((message) => message.role === "user" && !hasToolResult(message));
  const after = messages.slice(lastUser + 1);
  return {
    model: String(request.model ?? ""),
    stream: request.stream === true,
    // Server tools (`web_search_…`) have a type and no input schema: the twin never calls them.
    tools: asArray(request.tools)
      .map(asRecord)
      .filter((tool) => tool.input_schema !== undefined)
      .map((tool) => ({ name: String(tool.name), parameters: tool.input_schema as JsonSchema })),
    system: collectText(request.system),
    lastUserText: lastUser < 0 ? "" : collectText(messages[lastUser]),
    allText: [collectText(request.system), collectText(messages)].join("\n"),
    toolResults: after.flatMap(blocksOf).filter((block) => block.type === "tool_result").length,
  };
}

const usage = (meta: ReplyMeta, outputTokens: number) => ({
  input_tokens: meta.inputTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: outputTokens,
});

const stopReason = (reply: Reply) => (reply.kind === "text" ? "end_turn" : "tool_use");

function message(meta: ReplyMeta, content: unknown[], stop: string | null, outputTokens: number) {
  return { id: `msg_${meta.id}`, type: "message", role: "assistant", model: meta.model, content, stop_reason: stop, stop_sequence: null, usage: usage(meta, outputTokens) };
}

function streamFrames(reply: Reply, meta: ReplyMeta): string[] {
  const frames: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) => frames.push(sseFrame({ type, ...data }, type));
  emit("message_start", { message: message(meta, [], null, 1) });
  if (reply.kind === "text") {
    emit("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    emit("ping", {});
    for (const text of textDeltas(reply.text)) emit("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
  } else {
    emit("content_block_start", { index: 0, content_block: { type: "tool_use", id: reply.callId, name: reply.call.name, input: {} } });
    emit("ping", {});
    for (const partial of jsonDeltas(JSON.stringify(reply.call.args))) {
      emit("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: partial } });
    }
  }
  emit("content_block_stop", { index: 0 });
  emit("message_delta", { delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: meta.outputTokens } });
  emit("message_stop", {});
  return frames;
}

function jsonBody(reply: Reply, meta: ReplyMeta): unknown {
  const block = reply.kind === "text" ? { type: "text", text: reply.text } : { type: "tool_use", id: reply.callId, name: reply.call.name, input: reply.call.args };
  return message(meta, [block], stopReason(reply), meta.outputTokens);
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  429: "rate_limit_error",
  500: "api_error",
  529: "overloaded_error",
};

function errorBody(status: number, message: string): unknown {
  return { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message } };
}

export const anthropicMessages: WireApi = { name: "anthropic-messages", parse, streamFrames, jsonBody, errorBody };
