import type { Conversation, Reply } from "../conversation.ts";

export type ApiName = "openai-chat" | "openai-responses" | "anthropic-messages" | "gemini";

/** Facts about one reply that every wire format carries somewhere. */
export type ReplyMeta = {
  /** Unique per request (`twin_7`), the base of the reply's ids. */
  id: string;
  model: string;
  /** Unix seconds. */
  created: number;
  inputTokens: number;
  outputTokens: number;
};

/** One model API: how its requests read and how its replies and errors are written. */
export type WireApi = {
  readonly name: ApiName;
  /** Reads a request body (and the URL, where Gemini names the model and the streaming mode). */
  parse(body: unknown, url: URL): Conversation;
  /** The reply as server-sent-event frames, each ready to write (ends with a blank line). */
  streamFrames(reply: Reply, meta: ReplyMeta): string[];
  /** The reply as one JSON body, for a request that did not ask for streaming. */
  jsonBody(reply: Reply, meta: ReplyMeta): unknown;
  /** The provider's error body for an HTTP error status. */
  errorBody(status: number, message: string): unknown;
};

/** An SSE frame: `data:` alone (OpenAI chat, Gemini) or with its `event:` name. */
export function sseFrame(data: unknown, event?: string): string {
  const payload = typeof data === "string" ? data : JSON.stringify(data);
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${payload}\n\n`;
}
