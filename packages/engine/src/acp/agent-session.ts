import * as acp from "@agentclientprotocol/sdk";
import type { Usage } from "@baton/protocol";
import { permissionQuestion } from "../permissions/permission-question.ts";
import { chooseOption, decidePermission, type PermissionRule } from "../permissions/policy.ts";
import type { SessionSetup } from "../agents/agent-launch.ts";
import { StreamRedactor, type Redactor } from "../redaction/redactor.ts";
import { chooseAgentIsolation, isolatedCommand, notIsolatedLog, type AgentIsolationMode } from "../isolation/user-namespace.ts";
import { AgentProcess, type AgentCommand } from "./agent-process.ts";
import { AcpEventMapper, type EventSink, type FinishedToolCall, type ToolOutputTrace } from "./event-mapper.ts";
import { LiveSession } from "./live-session.ts";
import { asObject } from "./json-access.ts";
import { setUpSession } from "./session-setup.ts";
import { tapStreams } from "./tap.ts";
import { AcpTranscript } from "./transcript.ts";
import { errorText } from "./error-text.ts";
import { isBatonError } from "../errors.ts";

export type SessionOptions = {
  agentName: string;
  command: AgentCommand;
  /** Whether the agent gets a user namespace of its own, out of reach of Baton's process (the default). */
  isolation?: AgentIsolationMode;
  sink: EventSink;
  redactor: Redactor;
  transcriptPath: string;
  rules: readonly PermissionRule[];
  /** False turns off the built-in permission rules (no git push, no edits outside the workspace). */
  builtinRules?: boolean;
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

/** What `permission.resolved.rule` says when a request came in a turn Baton had cancelled. */
export const CANCELLED_TURN_RULE = "default:turn-cancelled";

/**
 * Runs one agent over ACP for one task: start it in its own process group, `initialize`,
 * `session/new` in the run's cwd, set the session up, then hand it to `conduct`, recording
 * everything as events through the tap. Returns how the session ended; it never throws for an
 * agent's failure (that is an outcome), only for Baton's own.
 */
export async function runAgentSession(options: SessionOptions): Promise<SessionOutcome> {
  const { sink, redactor } = options;
  const isolation = await chooseAgentIsolation(options.isolation ?? "user_namespace", options.command.env["PATH"]);
  if (isolation.kind === "none") sink.append("log", notIsolatedLog(isolation));
  const agent = await AgentProcess.start(isolatedCommand(options.command, isolation));
  const transcript = new AcpTranscript(options.transcriptPath, redactor, options.now);
  const mapper = new AcpEventMapper({
    sink,
    cwd: options.command.cwd,
    now: () => options.now().getTime(),
    newStreamRedactor: () => new StreamRedactor(redactor),
    redactText: (text) => redactor.redactText(text),
    ...(options.trace === undefined ? {} : { trace: options.trace }),
    ...(options.onToolFinished === undefined ? {} : { onToolFinished: options.onToolFinished }),
  });
  let lastActivity = performance.now();
  const streams = tapStreams(agent.stdout(), agent.stdin(), (dir, line) => {
    if (dir === "recv") lastActivity = performance.now();
    const message = transcript.record(dir, line);
    mapper.onMessage(dir, message);
    // The SDK's client validates every session/update strictly before any handler runs, and
    // prints "Error handling notification" on Baton's stderr for a kind it does not know
    // (which Baton records as runner.event). Baton maps updates from the tap alone, so the
    // SDK does not need them.
    return !(dir === "recv" && asObject(message)?.["method"] === acp.methods.client.session.update);
  });
  // Set once the session is up; a permission asked for in a turn Baton cancelled is not granted.
  let live: LiveSession | undefined;
  const app = acp
    .client({ name: "baton" })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      const toolCall = params.toolCall;
      if (live?.cancelling === true) {
        mapper.decisions.set(toolCall.toolCallId, { rule: CANCELLED_TURN_RULE, by: "policy" });
        return { outcome: { outcome: "cancelled" } };
      }
      // The session's cwd is the workspace root: edits must stay below it.
      const root = options.command.cwd;
      const decision = decidePermission(options.rules, permissionQuestion(toolCall, root), { root, builtinRules: options.builtinRules !== false });
      mapper.decisions.set(toolCall.toolCallId, { rule: decision.rule, by: "policy" });
      const optionId = chooseOption(params.options, decision.action);
      return optionId === undefined ? { outcome: { outcome: "cancelled" } } : { outcome: { outcome: "selected", optionId } };
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
    ...(sessionId === undefined ? {} : { session: sessionId }),
  });

  let result: SessionOutcome;
  try {
    const setup = await Promise.race([settle(startSession(ctx, options)), exitedEarly, aborted]);
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
      live = new LiveSession({
        id: sessionId,
        ctx,
        agent,
        mapper,
        ...(options.setup === undefined ? {} : { setup: options.setup }),
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

/** What a session fails with when Baton itself throws: a `BatonError`'s code and line, else `internal`. */
export function sessionFailure(error: unknown): { code: string; message: string } {
  if (isBatonError(error)) return { code: error.code, message: error.toLine() };
  return { code: "internal", message: `Baton failed while running the agent: ${error instanceof Error ? error.message : String(error)}` };
}

async function startSession(ctx: acp.ClientContext, options: SessionOptions) {
  const clientFs = SERVES_CLIENT_FS && (options.setup?.clientFs ?? true);
  const init = await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: clientFs, writeTextFile: clientFs }, terminal: false },
    clientInfo: { name: "baton", version: options.clientVersion },
  });
  const created = await ctx.request(acp.methods.agent.session.new, { cwd: options.command.cwd, mcpServers: [] });
  const info: Record<string, unknown> = { protocol_version: init.protocolVersion };
  if (init.agentInfo?.version) info["agent_version"] = init.agentInfo.version;
  if (init.agentCapabilities) info["capabilities"] = init.agentCapabilities;
  const { model, failure } = await setUpSession(ctx, created.sessionId, created, options.setup);
  if (model !== undefined) info["model"] = model;
  return { sessionId: created.sessionId, info, failure };
}


