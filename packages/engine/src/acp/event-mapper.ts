import { relative, isAbsolute } from "node:path";
import type { Usage } from "@baton/protocol";
import type { StreamRedactor } from "../redaction/redactor.ts";
import { AgentText } from "./agent-text.ts";
import type { EventSink } from "./event-sink.ts";
import { asInt, asObject, asString, idKey, type JsonObject } from "./json-access.ts";
import type { MapperContext } from "./mapper-context.ts";
import { PermissionRequests } from "./permission-requests.ts";
import { PromptTurns } from "./prompt-turns.ts";
import { SessionUsage } from "./session-usage.ts";
import { ToolCalls, type FinishedToolCall } from "./tool-calls.ts";
import type { ToolOutputTrace } from "./tool-output-files.ts";
import { planEntries } from "./update-fields.ts";

export type { EventSink } from "./event-sink.ts";
export type { FinishedToolCall } from "./tool-calls.ts";
export type { ToolOutputTrace } from "./tool-output-files.ts";
export { CANCELLED_TURN_RULE } from "./permission-requests.ts";
/** The decision a permission handler took, so the event can say which rule decided. */
export type { PermissionDecision } from "../permissions/permission-desk.ts";
import type { PermissionDecision } from "../permissions/permission-desk.ts";

type OpenTurn = { number: number; startedAt: number; main: boolean };

/**
 * Turns the ACP messages of one agent session, in wire order, into Baton events. It is fed by
 * the tap (both directions), never by SDK handlers, so that order and completeness hold.
 *
 * It keeps the session's turns itself and hands each kind of message to a collaborator it owns:
 * the streamed text ({@link AgentText}), tool calls ({@link ToolCalls}), permission requests
 * ({@link PermissionRequests}) and usage ({@link SessionUsage}).
 *
 * @example
 * const mapper = new AcpEventMapper({ sink, cwd, now: Date.now, newStreamRedactor });
 * tapStreams(stdout, stdin, (direction, line) => mapper.onMessage(direction, JSON.parse(line)));
 * mapper.beginTurn("task"); // then send the session/prompt
 */
export class AcpEventMapper {
  readonly #sink: EventSink;
  readonly #cwd: string;
  readonly #now: () => number;
  readonly #sentRequests = new Map<string, string>();
  /** Decisions keyed by tool call id, filled by the permission handler before it answers. */
  readonly decisions: Map<string, PermissionDecision>;
  readonly #onToolFinished: ((call: FinishedToolCall) => void) | undefined;
  #session = "";
  /** The turn messages and tool calls belong to; notices run beside it. */
  #turn: OpenTurn | undefined;
  /** Which turn each `session/prompt` belongs to, so that its answer ends that turn. */
  readonly #promptTurns = new PromptTurns<OpenTurn>();
  #turns = 0;
  readonly #text: AgentText;
  readonly #toolCalls: ToolCalls;
  readonly #permissions: PermissionRequests;
  readonly #usage: SessionUsage;

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
    /** What `permission.requested` says of a request besides the call: whether it waits for a person. */
    describePermission?: (toolCall: JsonObject) => JsonObject;
  }) {
    this.#onToolFinished = options.onToolFinished;
    this.#sink = options.sink;
    this.#cwd = options.cwd;
    this.#now = options.now;
    const context: MapperContext = {
      sink: options.sink,
      session: () => this.#session,
      now: options.now,
      elapsed: (since) => this.#elapsed(since),
      relative: (path) => this.#relative(path),
    };
    this.#text = new AgentText(context, options.newStreamRedactor, () => this.#turn?.number ?? this.#turns);
    this.#toolCalls = new ToolCalls(context, { trace: options.trace, redactText: options.redactText ?? ((text) => text) });
    this.#permissions = new PermissionRequests(context, { toolOf: (call) => this.#toolCalls.toolOf(call), describe: options.describePermission });
    this.decisions = this.#permissions.decisions;
    this.#usage = new SessionUsage(context, () => this.#turn?.number);
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
    return this.#usage.total;
  }

  /** Tool calls started and not yet finished. */
  get openToolCalls(): number {
    return this.#toolCalls.openCount;
  }

  /** What the agent said in the current (or last) turn, messages joined. */
  get turnWords(): string {
    return this.#text.turnWords;
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
      this.#text.flush();
      this.#turn = turn;
      this.#text.turnBegun();
      this.#toolCalls.turnBegun();
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
      else if (method === undefined && key !== undefined && this.#permissions.isOpen(key)) this.#permissions.answered(key, msg);
      return;
    }
    // Agents may send updates before the answer to session/new (Gemini CLI does): the session is
    // the one the message names.
    const named = asString(asObject(msg["params"])?.["sessionId"]);
    if (this.#session === "" && named !== undefined) this.#session = named;
    if (method === "session/update") this.#onUpdate(asObject(asObject(msg["params"])?.["update"]) ?? {});
    else if (method === "session/request_permission" && key !== undefined) {
      this.#text.flush();
      this.#permissions.requested(key, asObject(msg["params"]) ?? {});
    } else if (method !== undefined) {
      this.#text.flush();
      // A question the agent asks is recorded by the session's question desk (question.asked).
      if (method !== "elicitation/create") this.#sink.append("runner.event", { ...this.#sessionField(), native_type: method });
    }
    else if (key !== undefined && this.#sentRequests.get(key) === "session/prompt") this.#onPromptAnswer(key, msg);
  }

  /**
   * Ends whatever is still open when the session ends abnormally (agent exit, cancel), so that
   * every `*.started` gets its end.
   */
  closeOpen(status: "failed" | "cancelled", error?: { code: string; message: string }): void {
    this.#text.flush();
    this.#toolCalls.closeAll(status);
    const turn = this.#turn;
    if (turn) {
      this.#promptTurns.forget(turn);
      this.#endTurn(turn, status === "cancelled" ? "cancelled" : "error", undefined, error);
    }
  }

  #onUpdate(update: JsonObject): void {
    const kind = asString(update["sessionUpdate"]) ?? "unknown";
    // Any other update ends the text being streamed, so the log keeps the wire order.
    if (kind !== "agent_message_chunk" && kind !== "agent_thought_chunk") this.#text.flush();
    switch (kind) {
      case "agent_message_chunk":
      case "agent_thought_chunk":
        this.#text.chunk(kind === "agent_message_chunk" ? "text" : "thought", update);
        return;
      case "tool_call":
      case "tool_call_update":
        this.#onToolCall(update);
        return;
      case "plan":
        this.#sink.append("plan.updated", { session: this.#session, entries: planEntries(update["entries"]) });
        return;
      case "usage_update":
        this.#usage.contextReading(update);
        return;
      default:
        this.#sink.append("runner.event", { ...this.#sessionField(), native_type: `session/update:${kind}` });
    }
  }

  #onToolCall(update: JsonObject): void {
    const ended = this.#toolCalls.update(update);
    if (ended === undefined) return;
    if (ended.reportedCompaction) this.#usage.compactionReported();
    this.#onToolFinished?.(ended.finished);
  }

  #onPromptAnswer(key: string, msg: JsonObject): void {
    const turn = this.#promptTurns.answered(key);
    if (turn === undefined) return;
    if (turn.main) this.#text.flush();
    const result = asObject(msg["result"]);
    const error = asObject(msg["error"]);
    const usage = this.#usage.promptAnswered(result);
    if (error) {
      const message = asString(error["message"]) ?? "the agent answered the prompt with an error";
      this.#endTurn(turn, "error", usage, { code: `acp_error_${asInt(error["code"]) ?? "unknown"}`, message });
    } else {
      const stopReason = asString(result?.["stopReason"]) ?? "end_turn";
      if (stopReason === "cancelled") this.#permissions.cancelOpen();
      this.#endTurn(turn, stopReason, usage);
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
