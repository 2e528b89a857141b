import { hostname } from "node:os";
import { definedFields } from "@baton/protocol/core";
import type { AgentCommand } from "../acp/agent-process.ts";
import type { ConductAgent } from "../conduct/conductor.ts";
import type { RetrySchedule } from "../conduct/retry-policy.ts";
import type { SessionSetup } from "../agents/agent-launch.ts";
import { limitsData, type RunLimits } from "../conduct/limits.ts";
import { smallTokenBudgetWarning } from "../conduct/token-budget.ts";
import { trackValidation } from "../delivery/pull-request/deliver-pull-request.ts";
import { captureRunArtifacts, mergeRunBranch, openRunPullRequest, setupRunWorkspace, validationEnd, validationSpec, type RunPlace } from "../delivery/run-around.ts";
import type { RunDelivery } from "../delivery/run-delivery.ts";
import { isBatonError } from "../errors.ts";
import type { RepoInfo } from "../git/repo.ts";
import { chooseAgentIsolation, type AgentIsolationMode } from "../isolation/user-namespace.ts";
import type { AgentSandbox, ProxyRelay } from "../sandbox/prepare-sandbox.ts";
import type { PermissionRule } from "../permissions/policy.ts";
import type { Redactor } from "../redaction/redactor.ts";
import type { WorkspacePlan } from "../workspace/plan-workspace.ts";
import { openPeopleChannel, type PeopleChannel, type PeopleSettings } from "../input/people-channel.ts";
import { watchRunCancel } from "./cancel-request.ts";
import { RunSink, type RunLogWriter } from "./run-sink.ts";
import { runConductedAgent } from "./agent-run.ts";
import { runValidatedAgent, type ValidatedOutcome } from "../validation/validated-agent.ts";
import type { ProxyWiring } from "../agents/proxy-wiring.ts";
import { openRunProxy, type RunProxySettings } from "./run-proxy.ts";
import { decideRunEnd } from "./run-end.ts";
import { commitRunWork, readyWorkspace } from "./workspace-steps.ts";
import { LiveRunView } from "../transcript/live-run-view.ts";

export type RunRequest = {
  task: string;
  agentName: string;
  /** The agent's command; it runs in the run's workspace. */
  command: Omit<AgentCommand, "cwd">;
  /** Model delivery, session mode and quirks from the agent's registry entry (`--model`). */
  setup?: SessionSetup;
  /** The process's inference proxy: the agent reaches its model through it, with a run token, when its entry says how. */
  proxy?: RunProxySettings;
  /** How the agent is pointed at the proxy (its entry's `proxy`). */
  proxyWiring?: ProxyWiring;
  repo: RepoInfo;
  /** Where the run works (from `planWorkspace`, checked before the run was created). */
  workspace: WorkspacePlan;
  rules: readonly PermissionRule[];
  /** False turns off the built-in permission rules. */
  builtinRules?: boolean;
  /** `[isolation] agent`: the agent in a user namespace of its own (the default), or not. */
  isolation?: AgentIsolationMode;
  /** `[sandbox] kind = "bwrap"`: the agent in a sandbox of its own (from `prepareSandbox`, checked before the run). */
  sandbox?: AgentSandbox | undefined;
  /** Set by the run: how a sandboxed agent reaches its proxy. */
  proxyRelay?: (() => Promise<ProxyRelay>) | undefined;
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
  /** Limits on people's inputs (`baton steer`) and how long a permission question waits for a person. */
  peopleSettings?: PeopleSettings | undefined;
  /** Setup, validation, artifacts and merge around the agent's work (`[setup]`, `[validation]`, `[artifacts]`, `--merge`). */
  delivery?: RunDelivery;
  /** Aborting it cancels the run; its reason may be a {@link CancelRequest}. */
  signal: AbortSignal;
  now: () => Date;
  version: string;
  /** A CI job's step summary file (`$GITHUB_STEP_SUMMARY`): the run's bounded transcript is appended to it at its end. */
  stepSummaryFile?: string | undefined;
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
  // The run attempt's token to the proxy, issued before anything is logged: the log hides it.
  let sink: RunSink | undefined;
  const proxied = request.proxyWiring?.via === "none" ? undefined : openRunProxy(request.proxy, { limits: request.limits ?? {}, redactor: request.redactor, emit: (type, data) => sink?.append(type, data) });
  if (proxied !== undefined) request = { ...request, command: proxied.wire(request.command, request.proxyWiring), redactor: proxied.redactor, proxyRelay: proxied.relay };
  sink = new RunSink(writer, request.redactor);
  const live = new LiveRunView(sink, writer);
  const validated = trackValidation(sink);
  const started = request.now().getTime();
  const startedMono = performance.now();
  // A log that cannot be written (a full disk) ends the run too; closing the writer reports why.
  const cancel = watchRunCancel(writer.dir, request.signal, writer.failure);

  let result: RunResult = { runId: writer.runId, number: writer.number, status: "failed" };
  try {
    const limits = limitsData(request.limits ?? {});
    sink.append(
      "run.created",
      definedFields({
        number: writer.number,
        task: request.task,
        agent: request.agentName,
        model: request.setup?.model,
        repo: request.repo,
        limits: Object.keys(limits).length === 0 ? undefined : limits,
      }),
    );
    sink.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: hostname() });
    if (proxied !== undefined && request.proxy !== undefined) {
      sink.append("log", { level: "info", code: "inference_proxy", message: `the agent reaches its model through Baton's inference proxy at ${request.proxy.proxy.url}, with a run token instead of a provider key` });
    }
    // The agent's user namespace is probed while the workspace is made (the session asks again, answered at once).
    if (request.sandbox === undefined) chooseAgentIsolation(request.isolation ?? "user_namespace", request.command.env["PATH"]).catch(() => {});
    const workspace = await readyWorkspace(sink, request.workspace, { number: writer.number, task: request.task }).catch((error: unknown) => failure(error, "could not make the run's workspace"));
    if ("code" in workspace) {
      sink.append("run.failed", { error: workspace });
      return (result = { ...result, status: "failed", error: workspace });
    }
    const place: RunPlace = { runDir: writer.dir, workspace, redactor: request.redactor, maxOutputChars: request.maxOutputChars, signal: cancel.signal };
    // A workspace that cannot be set up fails the run before any agent starts.
    const setupError = await setupRunWorkspace(sink, request.delivery, place);
    if (setupError !== undefined) {
      sink.append("run.failed", { error: setupError });
      return (result = { ...result, status: "failed", error: setupError });
    }
    // People's inputs and answers are taken while the agent runs; what still waits is rejected after.
    const people = await openPeopleChannel(writer.dir, sink, request.peopleSettings);
    const { outcome, validation } = await runSession(sink, writer, request, place, startedMono, people).finally(() => people.close());
    // The agent is gone: its token is refused from now on.
    proxied?.close();
    // Whatever the outcome, what the agent wrote is kept: committed on the run's branch.
    const commit = await commitRunWork(sink, workspace, { runId: writer.runId, number: writer.number, task: request.task }).then(
      (made) => (made === undefined ? undefined : { sha: made.sha }),
      (error: unknown) => ({ error: failure(error, "could not commit") }),
    );
    await captureRunArtifacts(sink, request.delivery, place, new Map());
    const input = { outcome, commit, validation: validationEnd(validation), cancelledBy: cancel.requestedBy(), costUsd: sink.state.cost_usd, durationMs: request.now().getTime() - started };
    let end = decideRunEnd(input);
    // Only the work of a run that succeeded (validation passed) is delivered: the commit that passed is the one merged.
    if (end.status === "succeeded" && commit !== undefined && !("error" in commit)) {
      const run = { runId: writer.runId, number: writer.number, task: request.task };
      const delivery =
        request.delivery?.pullRequest === true ? await openRunPullRequest(sink, request.delivery.github, workspace, run, validated.lines(), cancel.signal) : await mergeRunBranch(sink, request.delivery, workspace, run);
      if (delivery !== undefined) end = decideRunEnd({ ...input, delivery: { error: delivery } });
    }
    for (const line of end.logs) sink.append("log", line);
    sink.append(end.final.type, end.final.data);
    result = { ...result, ...definedFields({ status: end.status, stoppedBy: end.stoppedBy, error: end.error }) };
  } finally {
    validated.stop();
    proxied?.close();
    cancel.stop();
    await writer.close();
  }
  // Loaded at the run's end: the transcript renderer is no part of a run's start-up.
  const { writeRunTranscripts } = await import("../transcript/run-transcripts.ts");
  await writeRunTranscripts(live.view(writer) ?? writer.readLog(), writer.dir, request.redactor, { stepSummaryFile: request.stepSummaryFile });
  return result;
}

function failure(error: unknown, doing: string): { code: string; message: string } {
  if (isBatonError(error)) return { code: error.code, message: error.toLine() };
  return { code: "internal", message: `Baton ${doing}: ${error instanceof Error ? error.message : String(error)}` };
}

async function runSession(sink: RunSink, writer: RunLogWriter, request: RunRequest, place: RunPlace, startedAt: number, people: PeopleChannel): Promise<ValidatedOutcome> {
  // Before the agent starts: a token budget that one turn can spend, and overshoot.
  // Through the inference proxy, tokens are counted at every model call, whatever the agent reports.
  const proxied = request.proxy !== undefined && request.proxyWiring !== undefined && request.proxyWiring.via !== "none";
  const smallBudget = smallTokenBudgetWarning(request.limits ?? {}, request.agentName, proxied ? "call" : request.agent?.tokenReports);
  if (smallBudget !== undefined) sink.append("log", smallBudget);
  const run = { dir: writer.dir, settings: { ...request, people }, agent: request, prompt: request.task, workspace: place.workspace, signal: place.signal, startedAt };
  const spec = validationSpec(request.delivery, place);
  if (spec === undefined) return { outcome: await runConductedAgent(sink, run) };
  return runValidatedAgent(sink, run, spec);
}
