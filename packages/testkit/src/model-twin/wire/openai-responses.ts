// OpenAI Responses, POST /v1/responses (codex-acp with `wire_api = "responses"`).
import { asArray, asRecord, collectText, jsonDeltas, textDeltas } from "../conversation.ts";
import type { Conversation, Reply } from "../conversation.ts";
import type { JsonSchema } from "../json-schema-fill.ts";
import { openAiErrorBody } from "./openai-errors.ts";
import { sseFrame } from "./wire-api.ts";
import type { ReplyMeta, WireApi } from "./wire-api.ts";

const TOOL_OUTPUT_TYPES = ["function_call_output", "custom_tool_call_output", "local_shell_call_output", "mcp_call_output"];

function parse(body: unknown): Conversation {
  const request = asRecord(body);
  const items = typeof request.input === "string" ? [{ role: "user", content: request.input }] : asArray(request.input).map(asRecord);
  const isUserMessage = (item: Record<string, unknown>) => item.role === "user" && (item.type === undefined || item.type === "message");
  const lastUser = items.findLastIndex(isUserMessage);
  const format = asRecord(asRecord(request.text).format);
  return {
    model: String(request.model ?? ""),
    stream: request.stream === true,
    tools: asArray(request.tools)
      .map(asRecord)
      .filter((tool) => tool.type === "function")
      .map((tool) => ({ name: String(tool.name), parameters: tool.parameters as JsonSchema | undefined })),
    system: [collectText(request.instructions), collectText(items.filter((i) => i.role === "system" || i.role === "developer"))].join("\n"),
    lastUserText: lastUser < 0 ? "" : collectText(items[lastUser]),
    allText: [collectText(request.instructions), collectText(items)].join("\n"),
    toolResults: items.slice(lastUser + 1).filter((item) => TOOL_OUTPUT_TYPES.includes(String(item.type))).length,
    responseSchema: format.type === "json_schema" ? (format.schema as JsonSchema) : undefined,
  };
}

function outputItem(reply: Reply, meta: ReplyMeta, status: "in_progress" | "completed"): Record<string, unknown> {
  if (reply.kind === "tool") {
    const args = status === "completed" ? JSON.stringify(reply.call.args) : "";
    return { type: "function_call", id: `fc_${meta.id}`, call_id: reply.callId, name: reply.call.name, arguments: args, status };
  }
  const content = status === "completed" ? [{ type: "output_text", text: reply.text, annotations: [] }] : [];
  return { type: "message", id: `msg_${meta.id}`, role: "assistant", status, content };
}

function response(meta: ReplyMeta, status: "in_progress" | "completed", output: unknown[]): Record<string, unknown> {
  return {
    id: `resp_${meta.id}`,
    object: "response",
    created_at: meta.created,
    model: meta.model,
    status,
    output,
    usage:
      status === "completed"
        ? {
            input_tokens: meta.inputTokens,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: meta.outputTokens,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: meta.inputTokens + meta.outputTokens,
          }
        : null,
  };
}

function streamFrames(reply: Reply, meta: ReplyMeta): string[] {
  let sequence = 0;
  const frames: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) => frames.push(sseFrame({ type, sequence_number: sequence++, ...data }, type));
  const done = outputItem(reply, meta, "completed");
  const itemId = String(done.id);
  emit("response.created", { response: response(meta, "in_progress", []) });
  emit("response.in_progress", { response: response(meta, "in_progress", []) });
  emit("response.output_item.added", { output_index: 0, item: outputItem(reply, meta, "in_progress") });
  if (reply.kind === "text") {
    const part = { type: "output_text", text: "", annotations: [] };
    emit("response.content_part.added", { item_id: itemId, output_index: 0, content_index: 0, part });
    for (const delta of textDeltas(reply.text)) emit("response.output_text.delta", { item_id: itemId, output_index: 0, content_index: 0, delta });
    emit("response.output_text.done", { item_id: itemId, output_index: 0, content_index: 0, text: reply.text });
    emit("response.content_part.done", { item_id: itemId, output_index: 0, content_index: 0, part: { ...part, text: reply.text } });
  } else {
    const args = JSON.stringify(reply.call.args);
    for (const delta of jsonDeltas(args)) emit("response.function_call_arguments.delta", { item_id: itemId, output_index: 0, delta });
    emit("response.function_call_arguments.done", { item_id: itemId, output_index: 0, arguments: args });
  }
  emit("response.output_item.done", { output_index: 0, item: done });
  emit("response.completed", { response: response(meta, "completed", [done]) });
  return frames;
}

function jsonBody(reply: Reply, meta: ReplyMeta): unknown {
  return response(meta, "completed", [outputItem(reply, meta, "completed")]);
}

export const openAiResponses: WireApi = { name: "openai-responses", parse, streamFrames, jsonBody, errorBody: openAiErrorBody };
