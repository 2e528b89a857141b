import { relative, isAbsolute } from "node:path";
import type { Usage } from "@baton/protocol";
import type { StreamRedactor } from "../redaction/redactor.ts";
import { asArray, asInt, asNumber, asObject, asString, idKey, type JsonObject } from "./json-access.ts";
import { PromptTurns } from "./prompt-turns.ts";
import { addUsage, locationPaths, planEntries, toolName, usageOf } from "./update-fields.ts";
import { locationChanges, PREVIEW_CHARS, summarizeToolContent, type FileChange } from "./tool-output.ts";

/** Where the complete output of each tool call goes (the run's trace store). */
export type ToolOutputTrace = { write(call: string, output: string): { file: string } | undefined };

/** Where mapped events go. Durable ones get a seq from the run log; ephemeral ones do not. */
export type EventSink = {
  append(type: string, data: Record<string, unknown>): void;
  publish(type: string, data: Record<string, unknown>): void;
};

/** The decision a permission handler took, so the event can say which rule decided. */
export type PermissionDecision = { rule: string; by: "policy" | "human" };

type OpenCall = { tool: string; kind: string; startedAt: number; locations: string[]; input: unknown };
type TextKind = "text" | "thought";
type OpenTurn = { number: number; startedAt: number; main: boolean };

/** What a finished tool call was, for loop detection: the same tool, input and output again. */
export type FinishedToolCall = { call: string; tool: string; input: unknown; status: string; output: string };

const EMPTY_USAGE: Usage = { input_tokens: 0, output_tokens: 0 };

/**
 * Turns the ACP messages of one agent session, in wire order, into Baton events. It is fed by
 * the tap (both directions), never by SDK handlers, so that order and completeness hold.
 */
export class AcpEventMapper {
  readonly #sink: EventSink;
  readonly #cwd: string;
  readonly #now: () => number;
  readonly #newStream: () => StreamRedactor;
  readonly #trace: ToolOutputTrace | undefined;
  readonly #redactText: (text: string) => string;
  /**
   * The last change reported for each path in the current turn: repeated edits of a file are
   * one `file.changed`, but a file edited and then deleted reports both.
   */
  readonly #changedThisTurn = new Map<string, string>();
  readonly #sentRequests = new Map<string, string>();
  readonly #permissionRequests = new Map<string, { call: string; options: JsonObject[] }>();
  readonly #calls = new Map<string, OpenCall>();
  /** Decisions keyed by tool call id, filled by the permission handler before it answers. */
  readonly decisions = new Map<string, PermissionDecision>();
  readonly #onToolFinished: ((call: FinishedToolCall) => void) | undefined;
  #session = "";
  /** The turn messages and tool calls belong to; notices run beside it. */
  #turn: OpenTurn | undefined;
  /** Which turn each `session/prompt` belongs to, so that its answer ends that turn. */
  readonly #promptTurns = new PromptTurns<OpenTurn>();
  #turns = 0;
  /** The agent's messages in the current turn, for classifying a failure by its words. */
  #turnWords: string[] = [];

  #text: { kind: TextKind; parts: string[]; stream: StreamRedactor; messageId?: string } | undefined;
  #usage: Usage = { ...EMPTY_USAGE };

  constructor(options: {
    sink: EventSink;
    cwd: string;
    now: () => number;
    newStreamRedactor: () => StreamRedactor;
    trace?: ToolOutputTrace;
    /** Redacts a preview before it is cut, so a cut never leaves part of a secret behind. */
    redactText?: (text: string) => string;
    /** Called for each tool call that completed or failed, with its whole output. */
    onToolFinished?: (call: FinishedToolCall) => void;
  }) {
    this.#onToolFinished = options.onToolFinished;
    this.#sink = options.sink;
    this.#cwd = options.cwd;
    this.#now = options.now;
    this.#newStream = options.newStreamRedactor;
    this.#trace = options.trace;
    this.#redactText = options.redactText ?? ((text) => text);
  }

  /** `runner.event` may come before any session exists (an extension notification after initialize). */
  #sessionField(): { session?: string } {
    return this.#session === "" ? {} : { session: this.#session };
  }

  set session(id: string) {
    this.#session = id;
  }

  get turns(): number {
    return this.#turns;
  }

  get usage(): Usage {
    return { ...this.#usage };
  }

  /** Tool calls started and not yet finished. */
  get openToolCalls(): number {
    return this.#calls.size;
  }

  /** What the agent said in the current (or last) turn, messages joined. */
  get turnWords(): string {
    return [...this.#turnWords, ...(this.#text?.kind === "text" ? [this.#text.parts.join("")] : [])].join("\n");
  }

  /**
   * Opens a turn: `turn.started` is logged before the prompt goes out, and the next
   * `session/prompt` sent is this turn's. A notice runs beside the current turn: what the agent
   * says and does still belongs to the turn it interrupted.
   */
  beginTurn(reason: string): number {
    this.#turns += 1;
    const main = reason !== "notice";
    const turn: OpenTurn = { number: this.#turns, startedAt: this.#now(), main };
    this.#promptTurns.begun(turn);
    if (main) {
      this.#flushText();
      this.#turn = turn;
      this.#turnWords = [];
      this.#changedThisTurn.clear();
    }
    this.#sink.append("turn.started", { session: this.#session, turn: this.#turns, reason });
    return this.#turns;
  }

  /** One raw message as the tap saw it. */
  onMessage(direction: "recv" | "send", message: unknown): void {
    const msg = asObject(message);
    if (!msg) return;
    const method = asString(msg["method"]);
    const key = idKey(msg["id"]);
    if (direction === "send") {
      if (method !== undefined && key !== undefined) this.#sentRequests.set(key, method);
      if (method === "session/prompt" && key !== undefined) this.#promptTurns.sent(key);
      else if (method === undefined && key !== undefined && this.#permissionRequests.has(key)) this.#onPermissionAnswer(key, msg);
      return;
    }
    // Agents may send updates before the answer to session/new (Gemini CLI does): the session is
    // the one the message names.
    const named = asString(asObject(msg["params"])?.["sessionId"]);
    if (this.#session === "" && named !== undefined) this.#session = named;
    if (method === "session/update") this.#onUpdate(asObject(asObject(msg["params"])?.["update"]) ?? {});
    else if (method === "session/request_permission" && key !== undefined) this.#onPermissionRequest(key, asObject(msg["params"]) ?? {});
    else if (method !== undefined) {
      this.#flushText();
      this.#sink.append("runner.event", { ...this.#sessionField(), native_type: method });
    }
    else if (key !== undefined && this.#sentRequests.get(key) === "session/prompt") this.#onPromptAnswer(key, msg);
  }

  /**
   * Ends whatever is still open when the session ends abnormally (agent exit, cancel), so that
   * every `*.started` gets its end.
   */
  closeOpen(status: "failed" | "cancelled", error?: { code: string; message: string }): void {
    this.#flushText();
    for (const [call, open] of this.#calls) {
      this.#sink.append("tool.completed", {
        session: this.#session,
        call,
        tool: open.tool,
        status: status === "cancelled" ? "cancelled" : "failed",
        is_error: true,
        duration_ms: this.#elapsed(open.startedAt),
        output_chars: 0,
      });
    }
    this.#calls.clear();
    const turn = this.#turn;
    if (turn) {
      this.#promptTurns.forget(turn);
      this.#endTurn(turn, status === "cancelled" ? "cancelled" : "error", undefined, error);
    }
  }

  #onUpdate(update: JsonObject): void {
    const kind = asString(update["sessionUpdate"]) ?? "unknown";
    // Any other update ends the text being streamed, so the log keeps the wire order.
    if (kind !== "agent_message_chunk" && kind !== "agent_thought_chunk") this.#flushText();
    switch (kind) {
      case "agent_message_chunk":
      case "agent_thought_chunk":
        this.#onChunk(kind === "agent_message_chunk" ? "text" : "thought", update);
        return;
      case "tool_call":
      case "tool_call_update":
        this.#onToolCall(update);
        return;
      case "plan":
        this.#sink.append("plan.updated", { session: this.#session, entries: planEntries(update["entries"]) });
        return;
      case "usage_update":
        this.#onUsageUpdate(update);
        return;
      default:
        this.#sink.append("runner.event", { ...this.#sessionField(), native_type: `session/update:${kind}` });
    }
  }

  #onChunk(kind: TextKind, update: JsonObject): void {
    const text = asString(asObject(update["content"])?.["text"]);
    if (text === undefined) return;
    const messageId = asString(update["messageId"]);
    if (this.#text && (this.#text.kind !== kind || (messageId !== undefined && messageId !== this.#text.messageId))) this.#flushText();
    this.#text ??= { kind, parts: [], stream: this.#newStream(), ...(messageId === undefined ? {} : { messageId }) };
    this.#text.parts.push(text);
    const safe = this.#text.stream.push(text);
    if (safe.length > 0) this.#sink.publish("agent.delta", { session: this.#session, kind, text: safe });
  }

  #flushText(): void {
    const open = this.#text;
    if (!open) return;
    this.#text = undefined;
    const rest = open.stream.flush();
    if (rest.length > 0) this.#sink.publish("agent.delta", { session: this.#session, kind: open.kind, text: rest });
    const type = open.kind === "text" ? "agent.message" : "agent.thought";
    if (open.kind === "text") this.#turnWords.push(open.parts.join(""));
    this.#sink.append(type, { session: this.#session, turn: this.#turn?.number ?? this.#turns, text: open.parts.join("") });
  }

  #onToolCall(update: JsonObject): void {
    const call = asString(update["toolCallId"]) ?? `c_${this.#calls.size + 1}`;
    let open = this.#calls.get(call);
    if (!open) {
      const kind = asString(update["kind"]) ?? "other";
      const tool = toolName(update, kind);
      open = { tool, kind, startedAt: this.#now(), locations: [], input: update["rawInput"] };
      this.#calls.set(call, open);
      const data: JsonObject = { session: this.#session, call, tool, kind };
      const title = asString(update["title"]);
      if (title !== undefined) data["title"] = title;
      if (update["rawInput"] !== undefined) data["input"] = update["rawInput"];
      const target = this.#targetOf(update);
      if (target !== undefined) data["target"] = target;
      this.#sink.append("tool.started", data);
    }
    const locations = locationPaths(update["locations"]);
    if (locations.length > 0) open.locations = locations;
    const status = asString(update["status"]);
    if (status !== "completed" && status !== "failed") return;
    this.#calls.delete(call);
    const output = summarizeToolContent(update["content"], update["rawOutput"], (path) => this.#relative(path));
    // Only a call that completed changed anything; a refused or failed one reports no files.
    if (status === "completed") this.#reportChanges([...output.files, ...locationChanges(open.kind, open.locations)]);
    const data: JsonObject = {
      session: this.#session,
      call,
      tool: open.tool,
      status,
      is_error: status === "failed",
      duration_ms: this.#elapsed(open.startedAt),
      output_chars: output.text.length,
    };
    if (output.exitCode !== undefined) data["exit_code"] = output.exitCode;
    if (output.text.length > 0) {
      data["preview"] = this.#redactText(output.text).slice(0, PREVIEW_CHARS);
      const traced = this.#trace?.write(call, output.text);
      if (traced !== undefined) data["output_file"] = traced.file;
    }
    this.#sink.append("tool.completed", data);
    this.#onToolFinished?.({ call, tool: open.tool, input: open.input, status, output: output.text });
  }

  /** `file.changed` for each path whose change this turn is new; a call's diff wins over its locations. */
  #reportChanges(changes: readonly FileChange[]): void {
    const seenInCall = new Set<string>();
    for (const change of changes) {
      const path = this.#relative(change.path);
      if (seenInCall.has(path)) continue;
      seenInCall.add(path);
      if (this.#changedThisTurn.get(path) === change.change) continue;
      // An added file edited again in the same turn is still added, as far as the turn goes.
      if (this.#changedThisTurn.get(path) === "added" && change.change === "modified") continue;
      this.#changedThisTurn.set(path, change.change);
      this.#sink.append("file.changed", { path, change: change.change });
    }
  }

  #targetOf(update: JsonObject): string | undefined {
    const input = asObject(update["rawInput"]);
    const command = asString(input?.["command"]);
    if (command !== undefined) return command.length > 500 ? `${command.slice(0, 500)}…` : command;
    const location = asString(asObject(asArray(update["locations"])[0])?.["path"]) ?? asString(input?.["path"]);
    return location === undefined ? undefined : this.#relative(location);
  }

  #onUsageUpdate(update: JsonObject): void {
    const data: JsonObject = { session: this.#session, basis: "total" };
    const used = asInt(update["used"]);
    const size = asInt(update["size"]);
    if (used !== undefined) data["context_used"] = used;
    if (size !== undefined) data["context_size"] = size;
    const cost = asObject(update["cost"]);
    const amount = asNumber(cost?.["amount"]);
    if (amount !== undefined && (asString(cost?.["currency"]) ?? "USD").toUpperCase() === "USD") data["cost_usd"] = amount;
    this.#sink.append("usage.updated", data);
  }

  #onPermissionRequest(key: string, params: JsonObject): void {
    this.#flushText();
    const toolCall = asObject(params["toolCall"]) ?? {};
    const call = asString(toolCall["toolCallId"]) ?? key;
    const options = asArray(params["options"]).flatMap((o) => (asObject(o) ? [asObject(o) as JsonObject] : []));
    this.#permissionRequests.set(key, { call, options });
    this.#sink.append("permission.requested", {
      session: this.#session,
      call,
      tool: this.#calls.get(call)?.tool ?? toolName(toolCall, asString(toolCall["kind"]) ?? "other"),
      options: options.map((o) => ({ id: asString(o["optionId"]) ?? "", kind: asString(o["kind"]) ?? "", name: asString(o["name"]) ?? "" })),
    });
  }

  #onPermissionAnswer(key: string, msg: JsonObject): void {
    const request = this.#permissionRequests.get(key);
    this.#permissionRequests.delete(key);
    if (!request) return;
    const outcome = asObject(asObject(msg["result"])?.["outcome"]);
    const optionId = asString(outcome?.["optionId"]);
    const chosen = request.options.find((o) => o["optionId"] === optionId);
    const decision = this.decisions.get(request.call) ?? { rule: "unknown", by: "policy" as const };
    this.decisions.delete(request.call);
    const data: JsonObject = {
      session: this.#session,
      call: request.call,
      decision: msg["error"] !== undefined ? "error" : (asString(chosen?.["kind"]) ?? asString(outcome?.["outcome"]) ?? "unknown"),
      by: decision.by,
      rule: decision.rule,
    };
    if (optionId !== undefined) data["option_id"] = optionId;
    this.#sink.append("permission.resolved", data);
  }

  #onPromptAnswer(key: string, msg: JsonObject): void {
    const turn = this.#promptTurns.answered(key);
    if (turn === undefined) return;
    if (turn.main) this.#flushText();
    const result = asObject(msg["result"]);
    const error = asObject(msg["error"]);
    const usage = usageOf(asObject(result?.["usage"]));
    if (usage) {
      this.#usage = addUsage(this.#usage, usage);
      this.#sink.append("usage.updated", { session: this.#session, basis: "delta", ...usage });
    }
    if (error) {
      const message = asString(error["message"]) ?? "the agent answered the prompt with an error";
      this.#endTurn(turn, "error", usage, { code: `acp_error_${asInt(error["code"]) ?? "unknown"}`, message });
    } else {
      this.#endTurn(turn, asString(result?.["stopReason"]) ?? "end_turn", usage);
    }
  }

  #endTurn(turn: OpenTurn, stopReason: string, usage?: Usage, error?: { code: string; message: string }): void {
    if (this.#turn === turn) this.#turn = undefined;
    const data: JsonObject = { session: this.#session, turn: turn.number, stop_reason: stopReason, duration_ms: this.#elapsed(turn.startedAt) };
    if (usage) data["usage"] = usage;
    if (error) data["error"] = error;
    this.#sink.append("turn.completed", data);
  }

  #elapsed(since: number): number {
    return Math.max(0, Math.round(this.#now() - since));
  }

  #relative(path: string): string {
    return isAbsolute(path) ? relative(this.#cwd, path) || "." : path;
  }
}
