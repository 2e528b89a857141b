// Gemini, POST /v1beta/models/{model}:streamGenerateContent?alt=sse and :generateContent
// (Gemini CLI through GOOGLE_GEMINI_BASE_URL; the non-streamed call is its model router).
import { asArray, asRecord, collectText, textDeltas } from "../conversation.ts";
import type { Conversation, Reply } from "../conversation.ts";
import type { JsonSchema } from "../json-schema-fill.ts";
import { sseFrame } from "./wire-api.ts";
import type { ReplyMeta, WireApi } from "./wire-api.ts";

const partsOf = (content: Record<string, unknown>) => asArray(content.parts).map(asRecord);
const hasFunctionResponse = (content: Record<string, unknown>) => partsOf(content).some((part) => part.functionResponse !== undefined);

/** The model named in `/v1beta/models/{model}:method`. */
export function geminiModelOf(url: URL): string {
  return /\/models\/([^/:]+)/.exec(url.pathname)?.[1] ?? "";
}

function parse(body: unknown, url: URL): Conversation {
  const request = asRecord(body);
  const contents = asArray(request.contents).map(asRecord);
  const lastUser = contents.findLastIndex((content) => content.role !== "model" && !hasFunctionResponse(content));
  const config = asRecord(request.generationConfig);
  return {
    model: geminiModelOf(url),
    stream: url.pathname.endsWith(":streamGenerateContent"),
    tools: asArray(request.tools)
      .flatMap((tool) => asArray(asRecord(tool).functionDeclarations))
      .map(asRecord)
      .map((fn) => ({ name: String(fn.name), parameters: (fn.parametersJsonSchema ?? fn.parameters) as JsonSchema | undefined })),
    system: collectText(request.systemInstruction),
    lastUserText: lastUser < 0 ? "" : collectText(contents[lastUser]),
    allText: [collectText(request.systemInstruction), collectText(contents)].join("\n"),
    toolResults: contents
      .slice(lastUser + 1)
      .flatMap(partsOf)
      .filter((part) => part.functionResponse !== undefined).length,
    responseSchema: (config.responseJsonSchema ?? config.responseSchema) as JsonSchema | undefined,
  };
}

function candidate(parts: unknown[], finishReason?: string) {
  return { content: { role: "model", parts }, index: 0, ...(finishReason === undefined ? {} : { finishReason }) };
}

const usageMetadata = (meta: ReplyMeta) => ({
  promptTokenCount: meta.inputTokens,
  candidatesTokenCount: meta.outputTokens,
  totalTokenCount: meta.inputTokens + meta.outputTokens,
});

const chunk = (meta: ReplyMeta, parts: unknown[], finishReason?: string) => ({
  candidates: [candidate(parts, finishReason)],
  ...(finishReason === undefined ? {} : { usageMetadata: usageMetadata(meta) }),
  modelVersion: meta.model,
  responseId: meta.id,
});

function streamFrames(reply: Reply, meta: ReplyMeta): string[] {
  if (reply.kind === "tool") {
    return [sseFrame(chunk(meta, [{ functionCall: { name: reply.call.name, args: reply.call.args } }], "STOP"))];
  }
  const deltas = textDeltas(reply.text);
  return deltas.map((text, i) => sseFrame(chunk(meta, [{ text }], i === deltas.length - 1 ? "STOP" : undefined)));
}

function jsonBody(reply: Reply, meta: ReplyMeta): unknown {
  const part = reply.kind === "text" ? { text: reply.text } : { functionCall: { name: reply.call.name, args: reply.call.args } };
  return chunk(meta, [part], "STOP");
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  402: "PERMISSION_DENIED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  529: "UNAVAILABLE",
};

function errorBody(status: number, message: string): unknown {
  return { error: { code: status, message, status: STATUS_NAMES[status] ?? "UNKNOWN" } };
}

export const gemini: WireApi = { name: "gemini", parse, streamFrames, jsonBody, errorBody };
