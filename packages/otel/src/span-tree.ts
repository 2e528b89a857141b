import type { Envelope } from "@baton/protocol/core";
import { BATON, GEN_AI, OPERATION, PROVIDER_NAMES } from "./gen-ai-conventions.ts";
import { spanIdOf, traceIdOf } from "./span-ids.ts";
import type { Attributes, SpanRecord } from "./span-record.ts";

/** The most characters of one captured text (`capture_content`): a span stays small. */
export const MAX_CAPTURED_CHARS = 4_096;

export type SpanTreeOptions = {
  /** Record redacted, capped messages and tool arguments (off by default: no content). */
  captureContent?: boolean;
  /** Applied to captured content (the log is redacted already; this is a second pass). */
  redact?: (text: string) => string;
};

type OpenSpan = SpanRecord & { output?: string };
type Data = Record<string, unknown>;

/** Events that become span events on the innermost open span they concern. */
const SPAN_EVENT_TYPES = new Set([
  "permission.requested",
  "permission.resolved",
  "question.asked",
  "question.answered",
  "limit.warning",
  "limit.reached",
  "provider.error",
  "retry.scheduled",
  "model.switched",
  "stall.detected",
  "repeat.detected",
  "handback.requested",
  "agent.compacted",
  "approval.requested",
  "approval.resolved",
  "stage.retrying",
  "model.request.refused",
]);

/**
 * Folds one run's events, in seq order, into spans: the run (`invoke_workflow` for a workflow),
 * its stages, `invoke_agent` per prompt turn, `execute_tool` per tool call, `chat` per model
 * call the inference proxy saw (`model.request.completed`); limits, retries,
 * permissions, the agent's questions and stalls as span events. `push` returns the spans each event finished. Pure:
 * the same events give the same spans, ids included.
 *
 * @example
 * const tree = new RunSpanTree("run_01…");
 * for (const event of events) for (const span of tree.push(event)) send(span);
 */
export class RunSpanTree {
  readonly #runId: string;
  readonly #traceId: string;
  readonly #options: SpanTreeOptions;
  #root: OpenSpan | undefined;
  readonly #stages = new Map<string, OpenSpan>();
  readonly #turns = new Map<string, OpenSpan>();
  readonly #tools = new Map<string, OpenSpan>();
  #created: Data = {};
  /** The model the agent reports it runs (agent.started), as opposed to the one asked for. */
  #reportedModel: string | undefined;

  constructor(runId: string, options: SpanTreeOptions = {}) {
    this.#runId = runId;
    this.#traceId = traceIdOf(runId);
    this.#options = options;
  }

  /** Whether spans are open (a run between its start and its terminal event). */
  get open(): boolean {
    return this.#root !== undefined;
  }

  push(event: Envelope): SpanRecord[] {
    const data = event.data as Data;
    const at = Date.parse(event.at);
    const seq = event.seq ?? 0;
    switch (event.type) {
      case "run.created":
        this.#created = data;
        return [];
      case "run.started":
        this.#startRoot(seq, at, data);
        return [];
      case "agent.started":
        this.#reportedModel = str(data["model"]) ?? this.#reportedModel;
        return [];
      case "stage.started": {
        const scope = stageKey(event);
        this.#stages.set(scope, this.#open(seq, at, `stage ${str(data["stage"]) ?? ""}`, "internal", this.#rootFor(seq, at), definedAttributes({ [BATON.stageId]: str(data["stage"]), [BATON.stageVisit]: num(data["visit"]), [BATON.stageAttempt]: num(data["attempt"]), [BATON.stageHandler]: str(data["handler"]), [BATON.branch]: event.stage?.branch, [GEN_AI.agentName]: str(data["agent"]), [GEN_AI.requestModel]: str(data["model"]) })));
        return [];
      }
      case "stage.completed":
      case "stage.failed": {
        const span = this.#stages.get(stageKey(event));
        if (span === undefined) return [];
        this.#stages.delete(stageKey(event));
        const outcome = str(data["outcome"]) ?? "failed";
        span.attributes[BATON.stageOutcome] = outcome;
        if (event.type === "stage.failed") this.#fail(span, obj(data["error"]));
        return [this.#close(span, at)];
      }
      case "turn.started": {
        const session = str(data["session"]) ?? "";
        const parent = this.#stages.get(stageKey(event)) ?? this.#rootFor(seq, at);
        const agent = str(parent.attributes[GEN_AI.agentName]) ?? str(this.#created["agent"]) ?? "agent";
        this.#turns.set(session, this.#open(seq, at, `${OPERATION.invokeAgent} ${agent}`, "client", parent, definedAttributes({ [GEN_AI.operationName]: OPERATION.invokeAgent, [GEN_AI.agentName]: agent, [GEN_AI.conversationId]: session, [GEN_AI.requestModel]: str(parent.attributes[GEN_AI.requestModel]) ?? str(this.#created["model"]), [BATON.turn]: num(data["turn"]), [BATON.turnReason]: str(data["reason"]) })));
        return [];
      }
      case "turn.completed": {
        const session = str(data["session"]) ?? "";
        const span = this.#turns.get(session);
        if (span === undefined) return [];
        this.#turns.delete(session);
        const usage = obj(data["usage"]);
        Object.assign(span.attributes, definedAttributes({ [GEN_AI.usageInputTokens]: num(usage?.["input_tokens"]), [GEN_AI.usageOutputTokens]: num(usage?.["output_tokens"]), [GEN_AI.usageCacheReadInputTokens]: num(usage?.["cache_read_tokens"]), [GEN_AI.usageCacheCreationInputTokens]: num(usage?.["cache_write_tokens"]), [GEN_AI.responseModel]: this.#reportedModel }));
        const stop = str(data["stop_reason"]);
        if (stop !== undefined) span.attributes[GEN_AI.responseFinishReasons] = [stop];
        if (data["error"] !== undefined) this.#fail(span, obj(data["error"]));
        if (span.output !== undefined) span.attributes[GEN_AI.outputMessages] = JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: span.output }] }]);
        return [this.#close(span, at)];
      }
      case "agent.message": {
        const span = this.#turns.get(str(data["session"]) ?? "");
        if (this.#options.captureContent === true && span !== undefined) span.output = this.#capture(`${span.output ?? ""}${str(data["text"]) ?? ""}`);
        return [];
      }
      case "tool.started": {
        const call = str(data["call"]) ?? "";
        const tool = str(data["tool"]) ?? "tool";
        const parent = this.#tools.get(str(data["parent_call"]) ?? "") ?? this.#turns.get(str(data["session"]) ?? "") ?? this.#stages.get(stageKey(event)) ?? this.#rootFor(seq, at);
        const attributes = definedAttributes({ [GEN_AI.operationName]: OPERATION.executeTool, [GEN_AI.toolName]: tool, [GEN_AI.toolCallId]: call, [BATON.toolKind]: str(data["kind"]) });
        if (this.#options.captureContent === true && data["input"] !== undefined) attributes[GEN_AI.toolCallArguments] = this.#capture(JSON.stringify(data["input"]) ?? "");
        this.#tools.set(call, this.#open(seq, at, `${OPERATION.executeTool} ${tool}`, "internal", parent, attributes));
        return [];
      }
      case "tool.completed": {
        const call = str(data["call"]) ?? "";
        const span = this.#tools.get(call);
        if (span === undefined) return [];
        this.#tools.delete(call);
        Object.assign(span.attributes, definedAttributes({ [BATON.toolStatus]: str(data["status"]), [GEN_AI.processExitCode]: num(data["exit_code"]) }));
        if (this.#options.captureContent === true && str(data["preview"]) !== undefined) span.attributes[GEN_AI.toolCallResult] = this.#capture(str(data["preview"]) ?? "");
        if (data["status"] !== "completed") this.#fail(span, obj(data["error"]) ?? { code: str(data["status"]) ?? "failed", message: `the tool call ${str(data["status"]) ?? "failed"}` });
        return [this.#close(span, at)];
      }
      case "model.request.completed":
        return [this.#chat(event, data, seq, at)];
      case "run.paused":
      case "run.completed":
      case "run.failed":
      case "run.cancelled":
        return this.#end(event.type, data, seq, at);
      default:
        if (SPAN_EVENT_TYPES.has(event.type)) this.#spanEvent(event, data, seq, at);
        return [];
    }
  }

  /**
   * A model call as one `chat` span (GenAI inference span): its event comes when the call ended,
   * so it starts `duration_ms` before. Its parent is the turn it happened in (the one open in its
   * stage), else its stage, else the run. Tokens only when the answer reported them.
   */
  #chat(event: Envelope, data: Data, seq: number, at: number): SpanRecord {
    const stage = stageKey(event);
    const parent = this.#onlyTurnIn(stage) ?? this.#stages.get(stage) ?? this.#rootFor(seq, at);
    const model = str(data["model"]) ?? "";
    const reported = data["usage_reported"] === true;
    const status = num(data["status"]);
    const span = this.#open(seq, at - (num(data["duration_ms"]) ?? 0), `${OPERATION.chat} ${model}`.trim(), "client", parent, definedAttributes({
      [GEN_AI.operationName]: OPERATION.chat,
      [GEN_AI.providerName]: PROVIDER_NAMES[str(data["provider"]) ?? ""] ?? str(data["provider"]),
      [GEN_AI.requestModel]: model === "" ? undefined : model,
      [GEN_AI.conversationId]: str(parent.attributes[GEN_AI.conversationId]),
      [GEN_AI.usageInputTokens]: reported ? num(data["input_tokens"]) : undefined,
      [GEN_AI.usageOutputTokens]: reported ? num(data["output_tokens"]) : undefined,
      [GEN_AI.usageCacheReadInputTokens]: reported ? num(data["cache_read_tokens"]) : undefined,
      [GEN_AI.usageCacheCreationInputTokens]: reported ? num(data["cache_write_tokens"]) : undefined,
      [GEN_AI.httpStatusCode]: status,
      [BATON.modelRequestId]: str(data["request_id"]),
      [BATON.modelApi]: str(data["api"]),
      [BATON.modelStream]: typeof data["stream"] === "boolean" ? data["stream"] : undefined,
      [BATON.modelTtfbMs]: num(data["ttfb_ms"]),
      [BATON.costUsd]: num(data["cost_usd"]),
      [BATON.costSource]: str(data["cost_source"]),
    }));
    if (status === undefined || status >= 400) this.#fail(span, { code: status === undefined ? "connection_failed" : String(status), message: str(data["error"]) ?? `the model call ended with HTTP ${status ?? "no answer"}` });
    else span.status = { code: "unset" };
    return this.#close(span, at);
  }

  #startRoot(seq: number, at: number, started: Data): OpenSpan {
    const workflow = str(this.#created["workflow"]);
    const name = workflow === undefined ? "baton.run" : `${OPERATION.invokeWorkflow} ${workflow}`;
    this.#root = this.#open(seq, at, name, "internal", undefined, definedAttributes({ [GEN_AI.operationName]: workflow === undefined ? undefined : OPERATION.invokeWorkflow, [GEN_AI.workflowName]: workflow, [GEN_AI.agentName]: str(this.#created["agent"]), [GEN_AI.requestModel]: str(this.#created["model"]), [BATON.runId]: this.#runId, [BATON.runNumber]: num(this.#created["number"]), [BATON.runAttempt]: num(started["attempt"]) }));
    return this.#root;
  }

  /** The open run span; a log whose events come before any `run.started` gets one from the first. */
  #rootFor(seq: number, at: number): OpenSpan {
    return this.#root ?? this.#startRoot(seq, at, {});
  }

  #end(type: string, data: Data, seq: number, at: number): SpanRecord[] {
    const root = this.#rootFor(seq, at);
    // Every start has its end in a sound log; whatever is still open ends with the run.
    const finished: SpanRecord[] = [];
    for (const open of [...this.#tools.values(), ...this.#turns.values(), ...this.#stages.values()]) {
      this.#fail(open, { code: "not_ended", message: `still open at ${type}` });
      finished.push(this.#close(open, at));
    }
    this.#tools.clear();
    this.#turns.clear();
    this.#stages.clear();
    const usage = obj(data["usage"]);
    Object.assign(root.attributes, definedAttributes({ [BATON.runStatus]: type === "run.completed" ? (str(data["status"]) ?? "completed") : type.slice(4), [BATON.stoppedBy]: str(data["stopped_by"]), [BATON.commit]: str(data["commit"]), [BATON.costUsd]: num(data["cost_usd"]), [GEN_AI.usageInputTokens]: num(usage?.["input_tokens"]), [GEN_AI.usageOutputTokens]: num(usage?.["output_tokens"]) }));
    if (type === "run.failed") this.#fail(root, obj(data["error"]));
    else if (type === "run.completed") root.status = { code: "ok" };
    finished.push(this.#close(root, at));
    this.#root = undefined;
    return finished;
  }

  #spanEvent(event: Envelope, data: Data, seq: number, at: number): void {
    const target = this.#tools.get(str(data["call"]) ?? "") ?? this.#turns.get(str(data["session"]) ?? "") ?? this.#onlyTurnIn(stageKey(event)) ?? this.#stages.get(stageKey(event)) ?? this.#rootFor(seq, at);
    const attributes: Attributes = { [BATON.seq]: seq };
    for (const [key, value] of Object.entries(data)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") attributes[`baton.${key}`] = value;
    }
    // A provider's message may quote content; it is kept only with capture_content.
    if (this.#options.captureContent !== true) delete attributes["baton.message"];
    target.events.push({ name: event.type, timeMs: at, attributes });
  }

  /** The one turn open in a stage visit: where an event that names no session belongs (a retry of that turn). */
  #onlyTurnIn(stage: string): OpenSpan | undefined {
    const parent = stage === "" ? this.#root : this.#stages.get(stage);
    const open = [...this.#turns.values()].filter((turn) => turn.parentSpanId === parent?.spanId);
    return open.length === 1 ? open[0] : undefined;
  }

  #open(seq: number, at: number, name: string, kind: SpanRecord["kind"], parent: OpenSpan | undefined, attributes: Attributes): OpenSpan {
    const span: OpenSpan = { traceId: this.#traceId, spanId: spanIdOf(this.#runId, seq), name, kind, startMs: at, endMs: at, attributes, events: [], status: { code: "unset" }, startSeq: seq };
    if (parent !== undefined) span.parentSpanId = parent.spanId;
    return span;
  }

  #close(span: OpenSpan, at: number): SpanRecord {
    const { output: _output, ...record } = span;
    return { ...record, endMs: Math.max(at, span.startMs) };
  }

  #fail(span: OpenSpan, error: Data | undefined): void {
    span.status = { code: "error", message: str(error?.["message"]) ?? "failed" };
    span.attributes[GEN_AI.errorType] = str(error?.["code"]) ?? "error";
  }

  #capture(text: string): string {
    const redacted = this.#options.redact === undefined ? text : this.#options.redact(text);
    return redacted.length > MAX_CAPTURED_CHARS ? `${redacted.slice(0, MAX_CAPTURED_CHARS)}…` : redacted;
  }
}

function stageKey(event: Envelope): string {
  return event.stage === undefined ? "" : `${event.stage.id}#${event.stage.visit}#${event.stage.branch ?? ""}`;
}

function definedAttributes(fields: Record<string, string | number | boolean | string[] | undefined>): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out;
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function obj(value: unknown): Data | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Data) : undefined;
}
