// The OpenTelemetry attribute names Baton's spans carry, in one place. The GenAI semantic
// conventions are still marked "Development": names may change between versions, so they are
// pinned here to one named version, and moving to another is a change to this file only.

/** The semantic-conventions release these names are taken from. */
export const GEN_AI_CONVENTIONS_VERSION = "1.45.0";
/** The schema URL of that release, sent with every span's scope. */
export const GEN_AI_SCHEMA_URL = `https://opentelemetry.io/schemas/${GEN_AI_CONVENTIONS_VERSION}`;

export const GEN_AI = {
  operationName: "gen_ai.operation.name",
  providerName: "gen_ai.provider.name",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  agentVersion: "gen_ai.agent.version",
  workflowName: "gen_ai.workflow.name",
  conversationId: "gen_ai.conversation.id",
  requestModel: "gen_ai.request.model",
  responseModel: "gen_ai.response.model",
  responseFinishReasons: "gen_ai.response.finish_reasons",
  /** Tokens spent (billed), never the context window's occupancy. */
  usageInputTokens: "gen_ai.usage.input_tokens",
  usageOutputTokens: "gen_ai.usage.output_tokens",
  usageCacheReadInputTokens: "gen_ai.usage.cache_read.input_tokens",
  usageCacheCreationInputTokens: "gen_ai.usage.cache_creation.input_tokens",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  toolCallArguments: "gen_ai.tool.call.arguments",
  toolCallResult: "gen_ai.tool.call.result",
  outputMessages: "gen_ai.output.messages",
  errorType: "error.type",
  /** The HTTP status of a model call's answer (the HTTP conventions' name). */
  httpStatusCode: "http.response.status_code",
  processExitCode: "process.exit.code",
} as const;

/** `gen_ai.operation.name` values. */
export const OPERATION = {
  invokeWorkflow: "invoke_workflow",
  invokeAgent: "invoke_agent",
  executeTool: "execute_tool",
  chat: "chat",
} as const;

/**
 * `gen_ai.provider.name` of each provider Baton's inference proxy speaks to (the conventions'
 * well-known values: Gemini's API is `gcp.gemini`).
 */
export const PROVIDER_NAMES: Record<string, string> = { anthropic: "anthropic", openai: "openai", gemini: "gcp.gemini" };

/** Baton's own attributes (not GenAI conventions): its run, stage and turn identity. */
export const BATON = {
  runId: "baton.run.id",
  runNumber: "baton.run.number",
  runAttempt: "baton.run.attempt",
  runStatus: "baton.run.status",
  stoppedBy: "baton.run.stopped_by",
  commit: "baton.run.commit",
  costUsd: "baton.cost_usd",
  stageId: "baton.stage.id",
  stageVisit: "baton.stage.visit",
  stageAttempt: "baton.stage.attempt",
  stageHandler: "baton.stage.handler",
  stageOutcome: "baton.stage.outcome",
  branch: "baton.stage.branch",
  turn: "baton.turn.number",
  turnReason: "baton.turn.reason",
  toolKind: "baton.tool.kind",
  toolStatus: "baton.tool.status",
  seq: "baton.seq",
  modelRequestId: "baton.model.request_id",
  modelApi: "baton.model.api",
  modelStream: "baton.model.stream",
  modelTtfbMs: "baton.model.ttfb_ms",
  costSource: "baton.cost_source",
} as const;
