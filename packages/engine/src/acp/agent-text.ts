import { definedFields } from "@baton/protocol/core";
import type { StreamRedactor } from "../redaction/redactor.ts";
import { asObject, asString, type JsonObject } from "./json-access.ts";
import type { MapperContext } from "./mapper-context.ts";

export type TextKind = "text" | "thought";

type OpenText = { kind: TextKind; parts: string[]; stream: StreamRedactor; messageId?: string };

/**
 * The agent's message or thought being streamed: each chunk is published at once as a redacted
 * `agent.delta`, and the whole is one durable `agent.message` (or `agent.thought`) once it ends.
 * It ends at a change of kind or message id, or when the mapper flushes it because something
 * else came on the wire, so that the log keeps the wire order.
 */
export class AgentText {
  readonly #context: MapperContext;
  readonly #newStream: () => StreamRedactor;
  /** The number of the turn a message belongs to when it ends. */
  readonly #turnNumber: () => number;
  #open: OpenText | undefined;
  /** The agent's messages in the current turn, for classifying a failure by its words. */
  #turnWords: string[] = [];

  constructor(context: MapperContext, newStream: () => StreamRedactor, turnNumber: () => number) {
    this.#context = context;
    this.#newStream = newStream;
    this.#turnNumber = turnNumber;
  }

  /** What the agent said in the current (or last) turn, messages joined. */
  get turnWords(): string {
    return [...this.#turnWords, ...(this.#open?.kind === "text" ? [this.#open.parts.join("")] : [])].join("\n");
  }

  /** A main turn begins: the words of the last one are no longer the current turn's. */
  turnBegun(): void {
    this.#turnWords = [];
  }

  /** An `agent_message_chunk` or `agent_thought_chunk` update. */
  chunk(kind: TextKind, update: JsonObject): void {
    const text = asString(asObject(update["content"])?.["text"]);
    if (text === undefined) return;
    const messageId = asString(update["messageId"]);
    if (this.#open && (this.#open.kind !== kind || (messageId !== undefined && messageId !== this.#open.messageId))) this.flush();
    this.#open ??= { kind, parts: [], stream: this.#newStream(), ...definedFields({ messageId }) };
    this.#open.parts.push(text);
    const safe = this.#open.stream.push(text);
    if (safe.length > 0) this.#context.sink.publish("agent.delta", { session: this.#context.session(), kind, text: safe });
  }

  /** Ends the text being streamed, if any: the rest of its deltas, then its durable event. */
  flush(): void {
    const open = this.#open;
    if (!open) return;
    this.#open = undefined;
    const { sink } = this.#context;
    const rest = open.stream.flush();
    if (rest.length > 0) sink.publish("agent.delta", { session: this.#context.session(), kind: open.kind, text: rest });
    const type = open.kind === "text" ? "agent.message" : "agent.thought";
    if (open.kind === "text") this.#turnWords.push(open.parts.join(""));
    sink.append(type, { session: this.#context.session(), turn: this.#turnNumber(), text: open.parts.join("") });
  }
}
