import type { WireApiName } from "./wire-routes.ts";

/** Tokens of one model call as its provider reports them. */
export type CallUsage = {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
};

export const NO_USAGE: CallUsage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };

/**
 * Reads usage from a response as it passes: server-sent events chunk by chunk (a frame can be
 * split across chunks), or a whole JSON body at the end. It never holds the stream up: the
 * proxy writes each chunk on before it is given here.
 */
export class UsageTap {
  readonly #api: WireApiName;
  readonly #stream: boolean;
  /** A stream's line not ended yet. */
  #pending: Buffer | undefined;
  #body: Buffer[] = [];
  #usage: CallUsage = { ...NO_USAGE };
  #seen = false;
  /** The model the response names (it may differ from the request's alias). */
  model: string | undefined;
  /** The tool calls the model asked for, by id (or position) and name. */
  readonly toolCalls = new Map<string, string>();

  constructor(api: WireApiName, stream: boolean) {
    this.#api = api;
    this.#stream = stream;
  }

  /** Whether any usage was read. */
  get seen(): boolean {
    return this.#seen;
  }

  get usage(): CallUsage {
    return this.#usage;
  }

  /**
   * A piece of the body. A stream is read line by line on its bytes: a `data:` line is decoded
   * and parsed only while the model is not known or when it holds a marker of usage or a tool
   * call. Once the model is known, a piece whose whole lines hold no marker is not read line by
   * line at all: only its last line, if not ended, is kept.
   */
  push(chunk: Buffer): void {
    if (!this.#stream) {
      this.#body.push(chunk);
      return;
    }
    const data = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk]);
    const last = data.lastIndexOf(LF);
    if (last !== -1 && (this.model === undefined || this.#marked(data, last))) {
      let start = 0;
      let end = data.indexOf(LF);
      while (end !== -1 && end <= last) {
        this.#line(data, start, end);
        start = end + 1;
        end = data.indexOf(LF, start);
      }
    }
    this.#pending = last + 1 < data.length ? data.subarray(last + 1) : undefined;
  }

  /** Whether a marker of this wire format starts before `before`. */
  #marked(data: Buffer, before: number): boolean {
    for (const marker of MARKERS[this.#api]) {
      const at = data.indexOf(marker);
      if (at !== -1 && at < before) return true;
    }
    return false;
  }

  /** The end of the response: a whole JSON body is read now. */
  end(): void {
    if (this.#stream) {
      if (this.#pending !== undefined) this.#line(this.#pending, 0, this.#pending.length);
      this.#pending = undefined;
      return;
    }
    this.#data(Buffer.concat(this.#body).toString("utf8"));
  }

  /** The line of `data` from `start` to `end` (its line feed, or the end). */
  #line(data: Buffer, start: number, end: number): void {
    if (end - start < DATA.length || data.compare(DATA, 0, DATA.length, start, start + DATA.length) !== 0) return;
    // Most frames of a stream are text deltas that name neither usage nor a tool call: they are
    // not decoded (the model is read from the first frames, until one names it).
    if (this.model !== undefined) {
      const line = data.subarray(start, end);
      if (!MARKERS[this.#api].some((marker) => line.includes(marker))) return;
    }
    this.#data(data.toString("utf8", start + DATA.length, end).trim());
  }

  #data(payload: string): void {
    if (payload === "" || payload === "[DONE]") return;
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return;
    }
    if (typeof value !== "object" || value === null) return;
    this.#read(value as Record<string, unknown>);
  }

  #read(event: Record<string, unknown>): void {
    const model = firstString(event["model"], (event["message"] as Record<string, unknown> | undefined)?.["model"], (event["response"] as Record<string, unknown> | undefined)?.["model"], event["modelVersion"]);
    if (model !== undefined) this.model = model;
    this.#tools(event);
    switch (this.#api) {
      case "anthropic_messages":
        return this.#anthropic(event);
      case "openai_chat":
        return this.#openAiChat(event);
      case "openai_responses":
        return this.#openAiResponses(event);
      case "gemini":
        return this.#gemini(event);
    }
  }

  #tools(event: Record<string, unknown>): void {
    for (const call of toolCallsIn(this.#api, event)) this.toolCalls.set(call.id ?? `#${this.toolCalls.size}`, call.name);
  }

  /** `message_start` carries input (and a first output count), `message_delta` the output so far; a whole body carries both. */
  #anthropic(event: Record<string, unknown>): void {
    const usage = objectAt(event, "usage") ?? objectAt(objectAt(event, "message"), "usage");
    if (usage === undefined) return;
    this.#seen = true;
    const u = this.#usage;
    this.#usage = {
      inputTokens: int(usage["input_tokens"]) ?? u.inputTokens,
      outputTokens: int(usage["output_tokens"]) ?? u.outputTokens,
      cacheReadTokens: int(usage["cache_read_input_tokens"]) ?? u.cacheReadTokens,
      cacheWriteTokens: int(usage["cache_creation_input_tokens"]) ?? u.cacheWriteTokens,
    };
  }

  /** `usage` in the last chunk (with `include_usage`) or the whole body; cached tokens are part of `prompt_tokens`. */
  #openAiChat(event: Record<string, unknown>): void {
    const usage = objectAt(event, "usage");
    if (usage === undefined) return;
    this.#seen = true;
    const cached = int(objectAt(usage, "prompt_tokens_details")?.["cached_tokens"]) ?? 0;
    this.#usage = { inputTokens: (int(usage["prompt_tokens"]) ?? 0) - cached, outputTokens: int(usage["completion_tokens"]) ?? 0, cacheReadTokens: cached, cacheWriteTokens: 0 };
  }

  /** `response.completed` (or `.incomplete`, `.failed`) in a stream, or the whole response body. */
  #openAiResponses(event: Record<string, unknown>): void {
    const response = typeof event["type"] === "string" ? objectAt(event, "response") : event;
    const usage = objectAt(response, "usage");
    if (usage === undefined) return;
    this.#seen = true;
    const cached = int(objectAt(usage, "input_tokens_details")?.["cached_tokens"]) ?? 0;
    this.#usage = { inputTokens: (int(usage["input_tokens"]) ?? 0) - cached, outputTokens: int(usage["output_tokens"]) ?? 0, cacheReadTokens: cached, cacheWriteTokens: 0 };
  }

  /** `usageMetadata`: each chunk carries the totals so far; the last one holds. Thoughts are output too. */
  #gemini(event: Record<string, unknown>): void {
    const usage = objectAt(event, "usageMetadata");
    if (usage === undefined) return;
    this.#seen = true;
    const cached = int(usage["cachedContentTokenCount"]) ?? 0;
    this.#usage = {
      inputTokens: (int(usage["promptTokenCount"]) ?? 0) - cached,
      outputTokens: (int(usage["candidatesTokenCount"]) ?? 0) + (int(usage["thoughtsTokenCount"]) ?? 0),
      cacheReadTokens: cached,
      cacheWriteTokens: 0,
    };
  }
}

/** What a streamed frame holds when it carries usage or a tool call, by wire format: frames with none of these are not parsed. */
const MARKERS: Record<WireApiName, readonly Buffer[]> = {
  anthropic_messages: [Buffer.from('"usage"'), Buffer.from('"tool_use"')],
  openai_chat: [Buffer.from('"usage"'), Buffer.from('"tool_calls"')],
  openai_responses: [Buffer.from('"usage"'), Buffer.from('"response.output_item.done"')],
  gemini: [Buffer.from('"usageMetadata"'), Buffer.from('"functionCall"')],
};
const DATA = Buffer.from("data:");
const LF = 10;

/** The tool calls one event (or whole body) of each wire format holds. */
function toolCallsIn(api: WireApiName, event: Record<string, unknown>): Array<{ id: string | undefined; name: string }> {
  const calls: Array<{ id: string | undefined; name: string }> = [];
  const add = (id: unknown, name: unknown) => {
    if (typeof name === "string" && name.length > 0) calls.push({ id: typeof id === "string" && id.length > 0 ? id : undefined, name });
  };
  const list = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null) : []);
  if (api === "anthropic_messages") {
    const block = objectAt(event, "content_block");
    if (block?.["type"] === "tool_use") add(block["id"], block["name"]);
    for (const part of list(event["content"])) if (part["type"] === "tool_use") add(part["id"], part["name"]);
  } else if (api === "openai_chat") {
    for (const choice of list(event["choices"])) {
      for (const call of [...list(objectAt(choice, "delta")?.["tool_calls"]), ...list(objectAt(choice, "message")?.["tool_calls"])]) add(call["id"], objectAt(call, "function")?.["name"]);
    }
  } else if (api === "openai_responses") {
    const items = event["type"] === "response.output_item.done" ? [objectAt(event, "item") ?? {}] : typeof event["type"] === "string" ? [] : list(event["output"]);
    for (const item of items) if (item["type"] === "function_call" || item["type"] === "custom_tool_call" || item["type"] === "local_shell_call") add(item["call_id"] ?? item["id"], item["name"] ?? item["type"]);
  } else {
    for (const candidate of list(event["candidates"])) for (const part of list(objectAt(candidate, "content")?.["parts"])) add(objectAt(part, "functionCall")?.["id"], objectAt(part, "functionCall")?.["name"]);
  }
  return calls;
}

function objectAt(value: unknown, key: string): Record<string, unknown> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const inner = (value as Record<string, unknown>)[key];
  return typeof inner === "object" && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}

function int(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined;
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === "string" && value.length > 0);
}
