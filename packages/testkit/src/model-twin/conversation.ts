import type { JsonSchema } from "./json-schema-fill.ts";
import { sampleValue } from "./json-schema-fill.ts";
import { DEFAULT_REPLY, scenarioSteps } from "./scenario.ts";
import type { PlayedScenario } from "./scenario.ts";
import { findAgentCwd, toolCallForStep } from "./tool-choice.ts";
import type { OfferedTool, ToolCall } from "./tool-choice.ts";

/** One model request, whatever its wire API, reduced to what the twin decides on. */
export type Conversation = {
  model: string;
  stream: boolean;
  tools: OfferedTool[];
  /** The system instructions, joined. */
  system: string;
  /** The text of the last user message that is not a tool result. */
  lastUserText: string;
  /** Every string of the request except the tool definitions: where the agent's cwd is found. */
  allText: string;
  /** Tool results after the last user message: how many steps of this turn the agent has played. */
  toolResults: number;
  /** A JSON Schema the reply must follow (Gemini CLI's model router asks for one). */
  responseSchema?: JsonSchema | undefined;
};

/** main: the agent's conversation with the user; auxiliary: titles, routers, predictions, summaries. */
export type RequestRole = "main" | "auxiliary";

export type Reply = { kind: "text"; text: string } | { kind: "tool"; call: ToolCall; callId: string };

/**
 * Side calls agents make besides the conversation, recognised by their instructions. Measured:
 * Claude Code asks for a session title and a "suggestion mode" prediction; OpenCode asks for a
 * title; summaries come with compaction.
 */
const AUXILIARY_PATTERNS = [
  /generate (?:a |an )?(?:short |concise |brief )?title/i,
  /\btitle for (?:this|the) (?:conversation|session|thread|chat)/i,
  /you are a title generator/i,
  /SUGGESTION MODE/i,
  /summari[sz]e (?:this|the) (?:conversation|session)/i,
];

/** The text the twin answers auxiliary calls with (a title, a prediction). */
export const AUXILIARY_REPLY = "Model twin reply";

export function requestRole(conversation: Conversation): RequestRole {
  if (conversation.tools.length === 0) return "auxiliary";
  const instructions = `${conversation.system}\n${conversation.lastUserText}`;
  return AUXILIARY_PATTERNS.some((pattern) => pattern.test(instructions)) ? "auxiliary" : "main";
}

/**
 * What the twin answers. The main conversation plays the scenario's steps as tool calls, one per
 * round trip (step i once the request holds i tool results), then the final text. Stateless on
 * purpose: a retried request gets the same answer.
 */
export function decideReply(conversation: Conversation, role: RequestRole, scenario: PlayedScenario, callId: string): Reply {
  if (role === "auxiliary") {
    const text = conversation.responseSchema === undefined ? AUXILIARY_REPLY : JSON.stringify(sampleValue(conversation.responseSchema));
    return { kind: "text", text };
  }
  const step = scenarioSteps(scenario)[conversation.toolResults];
  if (step === undefined) return { kind: "text", text: scenario.reply ?? DEFAULT_REPLY };
  const call = toolCallForStep(step, { tools: conversation.tools, cwd: findAgentCwd(conversation.allText) });
  if ("unplayable" in call) return { kind: "text", text: `The model twin cannot play step ${conversation.toolResults + 1}: ${call.unplayable}.` };
  return { kind: "tool", call, callId };
}

/** Every string below `value`, skipping the keys in `skip`, joined by newlines. */
export function collectText(value: unknown, skip: readonly string[] = ["tools"]): string {
  const parts: string[] = [];
  const walk = (node: unknown): void => {
    if (typeof node === "string") parts.push(node);
    else if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === "object" && node !== null) {
      for (const [key, child] of Object.entries(node)) if (!skip.includes(key)) walk(child);
    }
  };
  walk(value);
  return parts.join("\n");
}

/** Splits text into a few stream deltas at word boundaries, so clients see real streaming. */
export function textDeltas(text: string, pieces = 3): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const size = Math.max(1, Math.ceil(words.length / pieces));
  const deltas: string[] = [];
  for (let i = 0; i < words.length; i += size) deltas.push(words.slice(i, i + size).join(""));
  return deltas.length > 0 ? deltas : [""];
}

/** Splits a JSON argument string into a few deltas, as providers stream them. */
export function jsonDeltas(json: string, pieces = 3): string[] {
  const size = Math.max(1, Math.ceil(json.length / pieces));
  const deltas: string[] = [];
  for (let i = 0; i < json.length; i += size) deltas.push(json.slice(i, i + size));
  return deltas;
}

/** A rough token count (4 characters a token), so agents that track usage see numbers that move. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

export function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Output tokens of a reply, for the usage every API reports. */
export function replyTokens(reply: Reply): number {
  return estimateTokens(reply.kind === "text" ? reply.text : JSON.stringify(reply.call.args));
}
