import { hostname } from "node:os";
import { join } from "node:path";
import type { Usage } from "@baton/protocol";
import { runAgentSession, type SessionOutcome } from "../acp/agent-session.ts";
import type { AgentCommand } from "../acp/agent-process.ts";
import type { SessionSetup } from "../agents/agent-launch.ts";
import { Conductor, type ConductAgent } from "../conduct/conductor.ts";
import { limitsData, type RunLimits } from "../conduct/limits.ts";
import { workspaceHasChange } from "../conduct/output-check.ts";
import { DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from "../conduct/retry-policy.ts";
import { smallTokenBudgetWarning } from "../conduct/token-budget.ts";
import { isBatonError } from "../errors.ts";
import type { RepoInfo } from "../git/repo.ts";
import type { PermissionRule } from "../permissions/policy.ts";
import type { Redactor } from "../redaction/redactor.ts";
import { TraceStore } from "../trace/trace-store.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import type { WorkspacePlan } from "../workspace/plan-workspace.ts";
import { watchCancelRequest, type CancelRequest } from "./cancel-request.ts";
import { RunSink, type RunLogWriter } from "./run-sink.ts";
import { commitRunWork, readyWorkspace } from "./workspace-steps.ts";

export type RunRequest = {
  task: string;
  agentName: string;
  /** The agent's command; it runs in the run's workspace. */
  command: Omit<AgentCommand, "cwd">;
  /** Model delivery, session mode and quirks from the agent's registry entry (`--model`). */
  setup?: SessionSetup;
  repo: RepoInfo;
  /** Where the run works (from `planWorkspace`, checked before the run was created). */
  workspace: WorkspacePlan;
  rules: readonly PermissionRule[];
  /** False turns off the built-in permission rules. */
  builtinRules?: boolean;
  /** Cap on each stored tool output (`[trace] max_output_chars`). */
  maxOutputChars?: number;
  cancelGraceMs: number;
  /** Limits on time, cost, tokens, tool calls and repeated calls; none by default. */
  limits?: RunLimits;
  /** Waits before resending a turn the provider failed. */
  retry?: RetrySchedule;
  /** Notices, stall timeout and provider-error words from the agent's registry entry. */
  agent?: ConductAgent;
  /** The model to switch to once when the provider stays overloaded. */
  fallbackModel?: string;
  /** What the run must leave: a change in its workspace, or nothing (the default here; the CLI's default is `change`). */
  requireOutput?: "change" | "none";
  redactor: Redactor;
  /** Aborting it cancels the run; its reason may be a {@link CancelRequest}. */
  signal: AbortSignal;
  now: () => Date;
  version: string;
};

export type RunResult = {
  runId: string;
  number: number;
  status: "succeeded" | "stopped" | "failed" | "cancelled";
  /** For a stopped run: the limit (time, cost, tokens, tool_calls), `repeats` or `provider`. */
  stoppedBy?: string;
  error?: { code: string; message: string };
};

/** Stop reasons that end a run without its work being done, and the error code they map to. */
const FAILING_STOP_REASONS: Record<string, string> = {
  max_tokens: "output_truncated",
  max_turn_requests: "turn_limit",
  refusal: "refused",
};

/**
 * Runs a task from `run.created` to its final event. Whatever happens inside (the agent
 * crashes, cannot start, is cancelled), the run ends with exactly one of `run.completed`,
 * `run.failed` or `run.cancelled`, and the log is closed.
 */
export async function executeRun(writer: RunLogWriter, request: RunRequest): Promise<RunResult> {
  const sink = new RunSink(writer, request.redactor);
  const started = request.now().getTime();
  const startedMono = performance.now();
  const cancel = new AbortController();
  let cancelRequest: CancelRequest | undefined;
  const onAbort = () => {
    const reason: unknown = request.signal.reason;
    cancelRequest = isCancelRequest(reason) ? reason : { by: "user" };
    cancel.abort();
  };
  if (request.signal.aborted) onAbort();
  else request.signal.addEventListener("abort", onAbort, { once: true });
  const stopWatching = watchCancelRequest(writer.dir, (fromFile) => {
    cancelRequest ??= fromFile;
    cancel.abort();
  });

  let result: RunResult = { runId: writer.runId, number: writer.number, status: "failed" };
  try {
    const limits = limitsData(request.limits ?? {});
    sink.append("run.created", {
      number: writer.number,
      task: request.task,
      agent: request.agentName,
      ...(request.setup?.model === undefined ? {} : { model: request.setup.model }),
      repo: request.repo,
      ...(Object.keys(limits).length === 0 ? {} : { limits }),
    });
    sink.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: hostname() });
    const workspace = await readyWorkspace(sink, request.workspace, { number: writer.number, task: request.task }).catch((error: unknown) => failure(error, "could not make the run's workspace"));
    if ("code" in workspace) {
      sink.append("run.failed", { error: workspace });
      return (result = { ...result, status: "failed", error: workspace });
    }
    let outcome = await runSession(sink, writer, request, workspace, cancel.signal, startedMono);
    // Whatever the outcome, what the agent wrote is kept: committed on the run's branch.
    const commit = await commitRunWork(sink, workspace, { runId: writer.runId, number: writer.number, task: request.task }).catch((error: unknown) => failure(error, "could not commit"));
    if (commit !== undefined && "code" in commit) {
      sink.append("log", { level: "error", code: commit.code, message: commit.message });
      if (outcome.kind === "completed") outcome = { kind: "failed", error: commit, usage: outcome.usage, turns: outcome.turns };
    }
    const totals = { usage: outcome.usage, duration_ms: request.now().getTime() - started };
    const committed = commit !== undefined && !("code" in commit);
    // A provider failure of a known class does not lose the agent's work: with a change to keep,
    // the run is stopped by the provider rather than failed.
    if (outcome.kind === "failed" && outcome.providerError !== undefined && committed) {
      sink.append("log", { level: "warn", code: "provider_stopped", message: `the model provider stopped the run (${outcome.providerError}); its work so far is committed: ${outcome.error.message}` });
      outcome = { kind: "stopped", by: "provider", providerError: outcome.providerError, handedBack: false, usage: outcome.usage, turns: outcome.turns };
    } else if (outcome.kind === "stopped" && outcome.providerError !== undefined && outcome.error !== undefined && !committed) {
      // Stopped by the provider with no work to keep (even after a hand-back): a failure.
      outcome = { kind: "failed", error: outcome.error, providerError: outcome.providerError, usage: outcome.usage, turns: outcome.turns };
    }
    if (outcome.kind === "cancelled") {
      const by = cancelRequest ?? { by: "user" };
      sink.append("run.cancelled", { by: by.by, ...(by.reason === undefined ? {} : { reason: by.reason }) });
      result = { ...result, status: "cancelled" };
    } else if (outcome.kind === "failed" || (outcome.kind === "completed" && FAILING_STOP_REASONS[outcome.stopReason] !== undefined)) {
      const error =
        outcome.kind === "failed"
          ? outcome.error
          : { code: FAILING_STOP_REASONS[outcome.stopReason] as string, message: `the agent ended its turn with stop reason ${outcome.stopReason}` };
      const providerError = outcome.kind === "failed" ? outcome.providerError : undefined;
      sink.append("run.failed", { error, ...(providerError === undefined ? {} : { provider_error: providerError }), usage: totals.usage, active_ms: totals.duration_ms });
      result = { ...result, status: "failed", error };
    } else {
      const stopped = outcome.kind === "stopped" ? outcome : undefined;
      sink.append("run.completed", {
        status: stopped ? "stopped" : "succeeded",
        ...(stopped ? { stopped_by: stopped.by, handed_back: stopped.handedBack } : {}),
        ...(stopped?.providerError === undefined ? {} : { provider_error: stopped.providerError }),
        usage: totals.usage,
        ...(sink.state.cost_usd === undefined ? {} : { cost_usd: sink.state.cost_usd }),
        active_ms: totals.duration_ms,
        duration_ms: totals.duration_ms,
        ...(committed ? { commit: commit.sha } : {}),
      });
      result = stopped ? { ...result, status: "stopped", stoppedBy: stopped.by } : { ...result, status: "succeeded" };
    }
  } finally {
    stopWatching();
    request.signal.removeEventListener("abort", onAbort);
    await writer.close();
  }
  return result;
}

function failure(error: unknown, doing: string): { code: string; message: string } {
  if (isBatonError(error)) return { code: error.code, message: error.toLine() };
  return { code: "internal", message: `Baton ${doing}: ${error instanceof Error ? error.message : String(error)}` };
}

async function runSession(sink: RunSink, writer: RunLogWriter, request: RunRequest, workspace: Workspace, signal: AbortSignal, startedAt: number): Promise<SessionOutcome> {
  const empty: Usage = { input_tokens: 0, output_tokens: 0 };
  const conductor = new Conductor({
    task: request.task,
    sink,
    limits: request.limits ?? {},
    retry: request.retry ?? DEFAULT_RETRY_SCHEDULE,
    agent: request.agent ?? { notices: false, provider_error_prefixes: [] },
    ...(request.fallbackModel === undefined ? {} : { fallbackModel: request.fallbackModel }),
    ...(request.requireOutput === "change" ? { hasOutput: () => workspaceHasChange(workspace) } : {}),
    cancelGraceMs: request.cancelGraceMs,
    signal,
    startedAt,
  });
  // Before the agent starts: a token budget that one turn can spend, and overshoot.
  const smallBudget = smallTokenBudgetWarning(request.limits ?? {}, request.agentName, request.agent?.tokenReports);
  if (smallBudget !== undefined) sink.append("log", smallBudget);
  try {
    return await runAgentSession({
      agentName: request.agentName,
      command: { ...request.command, cwd: workspace.path },
      conduct: (live) => conductor.conduct(live),
      onToolFinished: (call) => conductor.onToolFinished(call),
      sink,
      redactor: request.redactor,
      transcriptPath: join(writer.dir, "acp.jsonl"),
      rules: request.rules,
      builtinRules: request.builtinRules !== false,
      trace: new TraceStore({ runDir: writer.dir, redactor: request.redactor, ...(request.maxOutputChars === undefined ? {} : { maxChars: request.maxOutputChars }) }),
      cancelGraceMs: request.cancelGraceMs,
      signal,
      now: request.now,
      clientVersion: request.version,
      ...(request.setup === undefined ? {} : { setup: request.setup }),
    });
  } catch (error) {
    const info = isBatonError(error)
      ? { code: error.code, message: error.toLine() }
      : { code: "internal", message: `Baton failed while running the agent: ${error instanceof Error ? error.message : String(error)}` };
    return { kind: "failed", error: info, usage: empty, turns: 0 };
  }
}

function isCancelRequest(value: unknown): value is CancelRequest {
  return typeof value === "object" && value !== null && typeof (value as CancelRequest).by === "string";
}
