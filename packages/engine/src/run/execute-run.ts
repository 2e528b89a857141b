import { hostname } from "node:os";
import { definedFields } from "@baton/protocol/core";
import type { SessionOutcome } from "../acp/agent-session.ts";
import type { AgentCommand } from "../acp/agent-process.ts";
import type { ConductAgent } from "../conduct/conductor.ts";
import type { RetrySchedule } from "../conduct/retry-policy.ts";
import type { SessionSetup } from "../agents/agent-launch.ts";
import { limitsData, type RunLimits } from "../conduct/limits.ts";
import { smallTokenBudgetWarning } from "../conduct/token-budget.ts";
import { isBatonError } from "../errors.ts";
import type { RepoInfo } from "../git/repo.ts";
import type { AgentIsolationMode } from "../isolation/user-namespace.ts";
import type { PermissionRule } from "../permissions/policy.ts";
import type { Redactor } from "../redaction/redactor.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import type { WorkspacePlan } from "../workspace/plan-workspace.ts";
import { watchRunCancel } from "./cancel-request.ts";
import { RunSink, type RunLogWriter } from "./run-sink.ts";
import { runConductedAgent } from "./agent-run.ts";
import { decideRunEnd } from "./run-end.ts";
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
  /** `[isolation] agent`: the agent in a user namespace of its own (the default), or not. */
  isolation?: AgentIsolationMode;
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

/**
 * Runs a task from `run.created` to its final event. Whatever happens inside (the agent
 * crashes, cannot start, is cancelled), the run ends with exactly one of `run.completed`,
 * `run.failed` or `run.cancelled`, and the log is closed.
 */
export async function executeRun(writer: RunLogWriter, request: RunRequest): Promise<RunResult> {
  const sink = new RunSink(writer, request.redactor);
  const started = request.now().getTime();
  const startedMono = performance.now();
  // A log that cannot be written (a full disk) ends the run too; closing the writer reports why.
  const cancel = watchRunCancel(writer.dir, request.signal, writer.failure);

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
    const outcome = await runSession(sink, writer, request, workspace, cancel.signal, startedMono);
    // Whatever the outcome, what the agent wrote is kept: committed on the run's branch.
    const commit = await commitRunWork(sink, workspace, { runId: writer.runId, number: writer.number, task: request.task }).then(
      (made) => (made === undefined ? undefined : { sha: made.sha }),
      (error: unknown) => ({ error: failure(error, "could not commit") }),
    );
    const end = decideRunEnd({ outcome, commit, cancelledBy: cancel.requestedBy(), costUsd: sink.state.cost_usd, durationMs: request.now().getTime() - started });
    for (const line of end.logs) sink.append("log", line);
    sink.append(end.final.type, end.final.data);
    result = { ...result, ...definedFields({ status: end.status, stoppedBy: end.stoppedBy, error: end.error }) };
  } finally {
    cancel.stop();
    await writer.close();
  }
  return result;
}

function failure(error: unknown, doing: string): { code: string; message: string } {
  if (isBatonError(error)) return { code: error.code, message: error.toLine() };
  return { code: "internal", message: `Baton ${doing}: ${error instanceof Error ? error.message : String(error)}` };
}

function runSession(sink: RunSink, writer: RunLogWriter, request: RunRequest, workspace: Workspace, signal: AbortSignal, startedAt: number): Promise<SessionOutcome> {
  // Before the agent starts: a token budget that one turn can spend, and overshoot.
  const smallBudget = smallTokenBudgetWarning(request.limits ?? {}, request.agentName, request.agent?.tokenReports);
  if (smallBudget !== undefined) sink.append("log", smallBudget);
  return runConductedAgent(sink, { dir: writer.dir, settings: request, agent: request, prompt: request.task, workspace, signal, startedAt });
}
