import { anthropicMessages } from "./wire/anthropic-messages.ts";
import { gemini, geminiModelOf } from "./wire/gemini.ts";
import { openAiChat } from "./wire/openai-chat.ts";
import { openAiResponses } from "./wire/openai-responses.ts";
import type { WireApi } from "./wire/wire-api.ts";

/** A discovery answer: model lists, model details, token counts. */
export type DiscoveryReply = { status: number; body: unknown };

export type Route =
  | { kind: "model"; api: WireApi }
  | { kind: "discovery"; answer: (models: readonly string[], body: unknown) => DiscoveryReply }
  | { kind: "unknown" };

const GEMINI_CALL = /^\/v1(?:beta|alpha)?\/models\/[^/:]+:(streamGenerateContent|generateContent|countTokens)$/;

const openAiModel = (id: string) => ({ id, object: "model", created: 0, owned_by: "baton-model-twin" });
const anthropicModel = (id: string) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" });
const geminiModel = (id: string) => ({
  name: `models/${id}`,
  displayName: id,
  inputTokenLimit: 1_048_576,
  outputTokenLimit: 65_536,
  supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
});

/** Counts characters, not tokens: enough for clients that only want a number. */
const countOf = (body: unknown) => Math.max(1, Math.ceil(JSON.stringify(body ?? "").length / 4));

/**
 * Which API a request is for. OpenAI and Anthropic paths are accepted with or without the
 * `/v1` prefix, since clients differ on whether the base URL includes it.
 */
export function routeRequest(method: string, url: URL, anthropicClient: boolean): Route {
  const path = url.pathname.replace(/\/+$/, "");
  const bare = path.replace(/^\/v1(?=\/)/, "");
  if (method === "POST") {
    if (bare === "/chat/completions") return { kind: "model", api: openAiChat };
    if (bare === "/responses") return { kind: "model", api: openAiResponses };
    if (bare === "/messages") return { kind: "model", api: anthropicMessages };
    if (bare === "/messages/count_tokens") return { kind: "discovery", answer: (_, body) => ({ status: 200, body: { input_tokens: countOf(body) } }) };
    const geminiCall = GEMINI_CALL.exec(path)?.[1];
    if (geminiCall === "countTokens") return { kind: "discovery", answer: (_, body) => ({ status: 200, body: { totalTokens: countOf(body) } }) };
    if (geminiCall !== undefined) return { kind: "model", api: gemini };
  }
  if (method === "GET") {
    if (bare === "/models") {
      return {
        kind: "discovery",
        answer: (models) =>
          anthropicClient
            ? { status: 200, body: { data: models.map(anthropicModel), has_more: false, first_id: models[0] ?? null, last_id: models.at(-1) ?? null } }
            : { status: 200, body: { object: "list", data: models.map(openAiModel) } },
      };
    }
    if (/^\/v1(?:beta|alpha)\/models$/.test(path)) return { kind: "discovery", answer: (models) => ({ status: 200, body: { models: models.map(geminiModel) } }) };
    if (/^\/v1(?:beta|alpha)\/models\/[^/:]+$/.test(path)) return { kind: "discovery", answer: () => ({ status: 200, body: geminiModel(geminiModelOf(url)) }) };
    const id = /^\/models\/([^/]+)$/.exec(bare)?.[1];
    if (id !== undefined) return { kind: "discovery", answer: () => ({ status: 200, body: anthropicClient ? anthropicModel(id) : openAiModel(id) }) };
  }
  return { kind: "unknown" };
}
