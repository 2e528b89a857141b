import * as acp from "@agentclientprotocol/sdk";
import type { Usage } from "@baton/protocol";
import type { PermissionAsker } from "../permissions/permission-asker.ts";
import { PermissionDesk } from "../permissions/permission-desk.ts";
import type { QuestionAsker } from "../questions/question-asker.ts";
import { QUESTION_CANCELLED_RULE, QUESTION_WITHDRAWN_RULE, QuestionDesk, type QuestionEnd } from "../questions/question-desk.ts";
import type { PermissionRule } from "../permissions/policy.ts";
import type { SessionSetup } from "../agents/agent-launch.ts";
import { StreamRedactor, type Redactor } from "../redaction/redactor.ts";
import { chooseAgentIsolation, isolatedCommand, notIsolatedLog, type AgentIsolationMode } from "../isolation/user-namespace.ts";
import { AgentProcess, type AgentCommand } from "./agent-process.ts";
import { sandboxedCommand, type AgentSandbox, type ProxyRelay } from "../sandbox/prepare-sandbox.ts";
import { sandboxedSetup } from "../sandbox/codex-in-sandbox.ts";
import { AcpEventMapper, CANCELLED_TURN_RULE, type EventSink, type FinishedToolCall, type ToolOutputTrace } from "./event-mapper.ts";
import { LiveSession } from "./live-session.ts";
import { asObject } from "./json-access.ts";
import { setUpSession } from "./session-setup.ts";
import { mcpServersFor } from "./mcp-servers.ts";
import { tapStreams } from "./tap.ts";
import { permissionAnswerLine, wellFormedPermissionRequest } from "./permission-at-once.ts";
import { AcpTranscript } from "./transcript.ts";
import { errorText } from "./error-text.ts";
import { isBatonError } from "../errors.ts";
import { definedFields } from "@baton/protocol/core";

export type SessionOptions = {
  agentName: string;
  command: AgentCommand;
  /** Whether the agent gets a user namespace of its own, out of reach of Baton's process (the default). */
  isolation?: AgentIsolationMode;
  /** `[sandbox] kind = "bwrap"`: the agent runs in a sandbox of its own, reaching the proxy through `relay`. */
  sandbox?: { sandbox: AgentSandbox; relay?: (() => Promise<ProxyRelay>) | undefined } | undefined;
  sink: EventSink;
  redactor: Redactor;
  transcriptPath: string;
  rules: readonly PermissionRule[];
  /** False turns off the built-in permission rules (no git push, no edits outside the workspace). */
  builtinRules?: boolean;
  /** Where questions of `ask` rules wait for a person; none: they are denied. */
  asker?: PermissionAsker | undefined;
  /**
   * Where the agent's questions (ACP form elicitation) wait for a person. With one, Baton tells
   * the agent it takes form questions; none: it does not, and any question is declined.
   */
  questions?: QuestionAsker | undefined;
  /** Where complete tool outputs go; none: previews only. */
  trace?: ToolOutputTrace;
  /** After `session/cancel`, how long the agent gets to end its turn before it is signalled. */
  cancelGraceMs: number;
  signal: AbortSignal;
  now: () => Date;
  clientVersion: string;
  /** Session mode, model delivery and quirks from the agent's registry entry. */
  setup?: SessionSetup;
  /** Called for each finished tool call with its whole output (loop detection). */
  onToolFinished?: (call: FinishedToolCall) => void;
  /**
   * Drives the task once the session is up: sends its turns and decides when it is done. The
   * session's process, transcript and final `agent.finished` are this function's caller's.
   */
  conduct: (session: LiveSession) => Promise<SessionEnd>;
};

/** How a session ended, before usage and turn counts are attached. */
export type SessionEnd =
  | { kind: "completed"; stopReason: string }
  /**
   * Stopped before its work was done, its work kept: at a limit, by a loop, by the provider.
   * `error`: by the provider, what failed the run if it leaves no work to keep.
   */
  | { kind: "stopped"; by: string; providerError?: string; handedBack: boolean; error?: { code: string; message: string } }
  | { kind: "cancelled" }
  /** `providerError`: the class, when the failure was the model provider's. */
  | { kind: "failed"; error: { code: string; message: string }; providerError?: string };

export type SessionOutcome = SessionEnd & { usage: Usage; turns: number; session?: string };

/** Grace for an agent to exit once its input is closed at the end of a session. */
const EXIT_GRACE_MS = 2_000;

/**
 * Baton does not serve `fs/read_text_file` and `fs/write_text_file` yet, so it advertises the
 * client `fs` capability to no agent. When it does, an entry's `no_client_fs` keeps it off for
 * agents that mishandle it (Gemini CLI).
 */
const SERVES_CLIENT_FS = false;


/**
 * Runs one agent over ACP for one task: start it in its own process group, `initialize`,
 * `session/new` in the run's cwd, set the session up, then hand it to `conduct`, recording
 * everything as events through the tap. Returns how the session ended; it never throws for an
 * agent's failure (that is an outcome), only for Baton's own.
 */
export async function runAgentSession(options: SessionOptions): Promise<SessionOutcome> {
  // In Baton's sandbox, an agent that sandboxes itself is told not to (see codex-in-sandbox.ts).
  if (options.sandbox !== undefined) options = definedFields({ ...options, setup: sandboxedSetup(options.agentName, options.command.command, options.setup) });
  const { sink, redactor } = options;
  const agent = await AgentProcess.start(await agentCommand(options));
  // The session's cwd is the workspace root: edits must stay below it.
  const desk = new PermissionDesk({ rules: options.rules, builtinRules: options.builtinRules !== false, root: options.command.cwd, asker: options.asker });
  const questions = new QuestionDesk({ sink, asker: options.questions, redact: (text) => redactor.redactText(text) });
  const transcript = new AcpTranscript(options.transcriptPath, redactor, options.now);
  const mapper = new AcpEventMapper({
    sink,
    cwd: options.command.cwd,
    now: () => options.now().getTime(),
    newStreamRedactor: () => new StreamRedactor(redactor),
    describePermission: (toolCall) => desk.describe(toolCall),
    redactText: (text) => redactor.redactText(text),
    ...definedFields({ trace: options.trace, onToolFinished: options.onToolFinished }),
  });
  let lastActivity = performance.now();
  // Set once the session is up; a permission asked for in a turn Baton cancelled is not granted.
  let live: LiveSession | undefined;
  /**
   * A permission request the policy decides is answered from the tap, on the wire as it is
   * read: the agent, which waits for the answer, gets it without the SDK's hops in between,
   * and `permission.resolved` follows `permission.requested` in the same batch. A question for
   * a person, a request in a turn being cancelled or one malformed goes to the SDK's handler.
   */
  const answeredAtOnce = (message: unknown): boolean => {
    if (live === undefined || live.cancelling) return false;
    const request = wellFormedPermissionRequest(message);
    const answer = request === undefined ? undefined : desk.decideNow(request.toolCall, request.options);
    if (request === undefined || answer === undefined) return false;
    mapper.decisions.set(request.toolCall.toolCallId, answer.decision);
    streams.send(permissionAnswerLine(request.id, answer.optionId));
    return true;
  };
  const streams = tapStreams(agent.stdout(), agent.stdin(), (dir, line) => {
    if (dir === "recv") lastActivity = performance.now();
    const message = transcript.record(dir, line);
    mapper.onMessage(dir, message);
    if (dir === "send") return true;
    const method = asObject(message)?.["method"];
    // The SDK's client validates every session/update strictly before any handler runs, and
    // prints "Error handling notification" on Baton's stderr for a kind it does not know
    // (which Baton records as runner.event). Baton maps updates from the tap alone, so the
    // SDK does not need them.
    if (method === acp.methods.client.session.update) return false;
    return !(method === acp.methods.client.session.requestPermission && answeredAtOnce(message));
  });
  const app = acp
    .client({ name: "baton" })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      const toolCall = params.toolCall;
      if (live === undefined || live.cancelling) {
        mapper.decisions.set(toolCall.toolCallId, { rule: CANCELLED_TURN_RULE, by: "policy" });
        return { outcome: { outcome: "cancelled" } };
      }
      // A question for a person ends with the turn's cancel (ACP: answered `cancelled`).
      const { optionId, decision } = await desk.answer(toolCall, params.options, live.whenCancelling());
      mapper.decisions.set(toolCall.toolCallId, live.cancelling && decision.by === "policy" ? { rule: CANCELLED_TURN_RULE, by: "policy" } : decision);
      return optionId === undefined || live.cancelling ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId } };
    })
    // A question for a person ends with the turn's cancel, or when the agent withdraws it
    // (`$/cancel_request`, which the SDK turns into the request's signal; so does the session's end).
    .onRequest(acp.methods.client.elicitation.create, async ({ params, signal }) => {
      const session = ("sessionId" in params && typeof params.sessionId === "string" ? params.sessionId : undefined) ?? sessionId ?? "";
      if (live?.cancelling === true) return questions.answer(session, params, "now");
      const withdrawn = new Promise<QuestionEnd>((resolve) => {
        const end = () => resolve({ rule: QUESTION_WITHDRAWN_RULE, reason: "the agent withdrew the question, or its session ended" });
        if (signal.aborted) end();
        else signal.addEventListener("abort", end, { once: true });
      });
      const turnCancelled = live === undefined ? new Promise<never>(() => {}) : live.whenCancelling().then((): QuestionEnd => ({ rule: QUESTION_CANCELLED_RULE, reason: "the turn was cancelled" }));
      return questions.answer(session, params, Promise.race([withdrawn, turnCancelled]));
    })
    // Updates are mapped from the tap, in wire order; the SDK never sees them (see below).
    .onNotification(acp.methods.client.session.update, () => {});
  const connection = app.connect(acp.ndJsonStream(streams.output, streams.input));
  const ctx = connection.agent;

  const exitedEarly = agent.exited.then((exit) => ({ kind: "exited" as const, exit }));
  const aborted = new Promise<{ kind: "aborted" }>((resolve) => {
    if (options.signal.aborted) resolve({ kind: "aborted" });
    else options.signal.addEventListener("abort", () => resolve({ kind: "aborted" }), { once: true });
  });
  const settle = <T>(promise: Promise<T>) =>
    promise.then(
      (value) => ({ kind: "ok" as const, value }),
      (error: unknown) => ({ kind: "error" as const, error }),
    );
  let sessionId: string | undefined;
  const outcome = (end: SessionEnd): SessionOutcome => ({
    ...end,
    usage: mapper.usage,
    turns: mapper.turns,
    ...definedFields({ session: sessionId }),
  });

  let result: SessionOutcome;
  try {
    const setup = await Promise.race([settle(startSession(ctx, options, questions.takesForms)), exitedEarly, aborted]);
    if (setup.kind === "aborted") {
      result = outcome({ kind: "cancelled" });
    } else if (setup.kind === "exited") {
      result = outcome({ kind: "failed", error: agent.exitError("while starting") });
    } else if (setup.kind === "error") {
      result = outcome({ kind: "failed", error: { code: "agent_start_failed", message: `the agent did not start a session: ${errorText(setup.error)}` } });
    } else if (setup.value.failure !== undefined) {
      // Setting up the session failed (a model mismatch): the run ends before the prompt.
      sessionId = setup.value.sessionId;
      mapper.session = sessionId;
      sink.append("agent.started", { session: sessionId, agent: options.agentName, ...setup.value.info });
      result = outcome({ kind: "failed", error: setup.value.failure });
    } else {
      const { info } = setup.value;
      sessionId = setup.value.sessionId;
      mapper.session = sessionId;
      sink.append("agent.started", { session: sessionId, agent: options.agentName, ...info });
      for (const skipped of (info["mcp_servers_skipped"] ?? []) as Array<{ name: string; why: string }>) {
        sink.append("log", { level: "warn", code: "mcp_server_skipped", message: `MCP server "${skipped.name}" was not given to the agent: ${skipped.why}` });
      }
      live = new LiveSession({
        id: sessionId,
        ctx,
        agent,
        mapper,
        ...definedFields({ setup: options.setup }),
        ...(typeof info["model"] === "string" ? { model: info["model"] } : {}),
        lastActivity: () => lastActivity,
      });
      result = outcome(await options.conduct(live));
    }
  } catch (error) {
    // Baton's own failure in the middle of a session: the agent is still ended below, and what
    // it left open (its tool calls, its turn) is closed, so that every start has its end.
    const failed = sessionFailure(error);
    mapper.closeOpen("failed", failed);
    result = outcome({ kind: "failed", error: failed });
  } finally {
    connection.close();
    // Closing the connection ends the questions still waiting: their ends are recorded first.
    await questions.settled();
  }
  const exit = await agent.stop(result.kind === "cancelled" ? options.cancelGraceMs : EXIT_GRACE_MS);
  const transcriptError = await transcript.close();
  if (transcriptError !== undefined) {
    sink.append("log", { level: "warn", code: "transcript_write_failed", message: `the ACP transcript (acp.jsonl) could not be written in full: ${transcriptError.message}` });
  }
  const finished: Record<string, unknown> = { turns: mapper.turns, usage: mapper.usage };
  if (sessionId !== undefined) finished["session"] = sessionId;
  if (exit.code !== null) finished["exit_code"] = exit.code;
  if (exit.signal !== null) finished["signal"] = exit.signal;
  sink.append("agent.finished", finished);
  return result;
}

/**
 * The agent's command as it is started: in its sandbox (which has a user namespace of its own),
 * else in a user namespace of its own where the machine allows one, else as it is (logged).
 */
async function agentCommand(options: SessionOptions): Promise<AgentCommand> {
  if (options.sandbox !== undefined) {
    const { sandbox, relay } = options.sandbox;
    const command = await sandboxedCommand(options.command, options.agentName, sandbox, relay === undefined ? undefined : await relay());
    options.sink.append("log", { level: "info", code: "agent_sandboxed", message: `the agent runs in a bubblewrap sandbox: only its worktree and its home are writable, and it has no network${relay === undefined ? "" : " but Baton's inference proxy"}` });
    return command;
  }
  const isolation = await chooseAgentIsolation(options.isolation ?? "user_namespace", options.command.env["PATH"]);
  if (isolation.kind === "none") options.sink.append("log", notIsolatedLog(isolation));
  return isolatedCommand(options.command, isolation);
}

/** What a session fails with when Baton itself throws: a `BatonError`'s code and line, else `internal`. */
export function sessionFailure(error: unknown): { code: string; message: string } {
  if (isBatonError(error)) return { code: error.code, message: error.toLine() };
  return { code: "internal", message: `Baton failed while running the agent: ${error instanceof Error ? error.message : String(error)}` };
}

async function startSession(ctx: acp.ClientContext, options: SessionOptions, takesForms: boolean) {
  const clientFs = SERVES_CLIENT_FS && (options.setup?.clientFs ?? true);
  const clientCapabilities: acp.ClientCapabilities = { fs: { readTextFile: clientFs, writeTextFile: clientFs }, terminal: false };
  // Form questions only where a person can answer them; never URL ones (nobody to open the page).
  if (takesForms) clientCapabilities.elicitation = { form: {} };
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities,
    clientInfo: { name: "baton", version: options.clientVersion },
  });
  const mcp = mcpServersFor(options.setup?.mcpServers ?? [], init.agentCapabilities);
  const created = await ctx.request(acp.methods.agent.session.new, { cwd: options.command.cwd, mcpServers: mcp.passed });
  const info: Record<string, unknown> = { protocol_version: init.protocolVersion };
  if (mcp.passed.length > 0) info["mcp_servers"] = mcp.passed.map((server) => server.name);
  if (mcp.skipped.length > 0) info["mcp_servers_skipped"] = mcp.skipped;
  if (init.agentInfo?.version) info["agent_version"] = init.agentInfo.version;
  if (init.agentCapabilities) info["capabilities"] = init.agentCapabilities;
  const { model, failure } = await setUpSession(ctx, created.sessionId, created, options.setup);
  if (model !== undefined) info["model"] = model;
  return { sessionId: created.sessionId, info, failure };
}


