import { hostname } from "node:os";
import { setTimeout as delay } from "node:timers/promises";
import { definedFields, type RunState } from "@baton/protocol/core";
import { limitsData } from "../conduct/limits.ts";
import { isBatonError } from "../errors.ts";
import type { RepoInfo } from "../git/repo.ts";
import type { AgentRunSettings, AgentToRun } from "../run/agent-run.ts";
import { openRunProxy, type RunProxySettings } from "../run/run-proxy.ts";
import { watchRunCancel } from "../run/cancel-request.ts";
import { openPeopleChannel, type PeopleChannel } from "../input/people-channel.ts";
import { RunSink, type RunLogWriter } from "../run/run-sink.ts";
import { readyWorkspace, recordWorkspace } from "../run/workspace-steps.ts";
import { captureRunArtifacts, setupRunWorkspace } from "../delivery/run-around.ts";
import type { RunDelivery } from "../delivery/run-delivery.ts";
import { capturedSoFar } from "../artifacts/capture-artifacts.ts";
import { TraceStore } from "../trace/trace-store.ts";
import { git } from "../workspace/git-cli.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import type { WorkspacePlan } from "../workspace/plan-workspace.ts";
import { commitStage } from "./commit-stage.ts";
import type { GateDecision } from "./gate-answer.ts";
import { AgentThreads } from "./agent-threads.ts";
import { forkStartEvents, type ForkPoint } from "./fork-point.ts";
import { abortUnfinishedMerge } from "./parallel/integrate.ts";
import { resumePoint } from "./resume-point.ts";
import { stageHandlers } from "./stage-handlers.ts";
import { walkWorkflow, type WalkStart } from "./walk-workflow.ts";
import { decideWorkflowEnd, type WorkflowRunResult } from "./workflow-end.ts";
import type { WorkflowRouter } from "./workflow-router.ts";

/** The workflow as `workflow.loaded` records it. */
export type LoadedWorkflow = {
  name: string;
  file?: string | undefined;
  sha256?: string | undefined;
  goal?: string | undefined;
  nodes: { id: string; label?: string; handler: string }[];
  edges: { from: string; to: string; label?: string; condition?: string }[];
};

export type WorkflowRunRequest = {
  task: string;
  /** The run's own agent: stages that name none run it. */
  agent: AgentToRun;
  /** Another agent or model for a stage that names one (`agent=`, `model=`, the stylesheet). */
  resolveAgent: (stage: string, agent: string | undefined, model: string | undefined, branch?: string) => Promise<AgentToRun>;
  settings: AgentRunSettings;
  /** The process's inference proxy: one run token for the run attempt, every stage's agent pointed at it as its entry says. */
  proxy?: RunProxySettings;
  router: WorkflowRouter;
  workflow: LoadedWorkflow;
  repo: RepoInfo;
  /** `--auto-approve`: every gate takes its first option. */
  autoApprove: boolean;
  /** The base environment of command stages. */
  commandEnv: Record<string, string>;
  /** `[setup]` in each fresh workspace, validate and merge stages, `[artifacts]` after each stage. */
  delivery?: RunDelivery | undefined;
  signal: AbortSignal;
  /**
   * A new run: where it works. A fork: a new run too, its workspace at another run's
   * checkpoint, walking on from there. A resumed one: its folded log, and the decision it
   * brings to its gate.
   */
  start:
    | { kind: "new"; workspace: WorkspacePlan }
    | { kind: "fork"; workspace: WorkspacePlan; fork: ForkPoint }
    | {
        kind: "resume";
        state: RunState;
        attempt: number;
        decision?: GateDecision | undefined;
        /** Where it works now, when not where it worked before (a lost worker's run, on the worker that took it over: recorded as a new `workspace.ready`). */
        workspace?: Workspace | undefined;
        /** The seq of the checkpoint it goes on after, when not its last one (the last one the remote has). */
        checkpoint?: number | undefined;
      };
};

/**
 * Runs a workflow from its start (or resumes it after its last checkpoint) to one terminal
 * event: `run.completed`, `run.failed`, `run.cancelled`, or `run.paused` at a gate. The log is
 * closed on every path.
 */
export async function executeWorkflow(writer: RunLogWriter, request: WorkflowRunRequest): Promise<WorkflowRunResult> {
  // The run attempt's token to the proxy, issued before anything is logged: the log hides it.
  let proxySink: RunSink | undefined;
  const proxied = openRunProxy(request.proxy, { limits: request.settings.limits ?? {}, redactor: request.settings.redactor, emit: (type, data) => proxySink?.append(type, data) });
  if (proxied !== undefined) {
    const wire = (agent: AgentToRun): AgentToRun => ({ ...agent, command: proxied.wire(agent.command, agent.proxyWiring) });
    const resolveAgent = request.resolveAgent;
    request = { ...request, settings: { ...request.settings, redactor: proxied.redactor, proxyRelay: proxied.relay }, agent: wire(request.agent), resolveAgent: async (...args) => wire(await resolveAgent(...args)) };
  }
  const resumed = request.start.kind === "resume" ? request.start : undefined;
  // A resumed run's sink starts from its folded log: run-wide limits and goal gates see every attempt.
  const sink = new RunSink(writer, request.settings.redactor, resumed === undefined ? undefined : { state: resumed.state, listeners: new Set() });
  proxySink = sink;
  // A new run's transcript is folded as it goes (the renderer itself is loaded at the end); a resumed one's log is read then.
  const live = resumed === undefined ? new (await import("../transcript/live-run-view.ts")).LiveRunView(sink, writer) : undefined;
  const started = request.settings.now().getTime();
  const startedMono = performance.now();
  // A log that cannot be written (a full disk) ends the run too; closing the writer reports why.
  const cancel = watchRunCancel(writer.dir, request.signal, writer.failure);
  let result: WorkflowRunResult = { runId: writer.runId, number: writer.number, status: "failed" };
  let threads: AgentThreads | undefined;
  let people: PeopleChannel | undefined;
  try {
    let workspace: Workspace | { code: string; message: string };
    let start: WalkStart;
    if (resumed === undefined) {
      const fork = request.start.kind === "fork" ? request.start.fork : undefined;
      const limits = limitsData(request.settings.limits ?? {});
      sink.append(
        "run.created",
        definedFields({ number: writer.number, task: request.task, agent: request.agent.agentName, model: request.agent.setup?.model, workflow: request.workflow.name, repo: request.repo, limits: Object.keys(limits).length === 0 ? undefined : limits, origin: fork?.origin }),
      );
      sink.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host: hostname() });
      sink.append("workflow.loaded", definedFields({ ...request.workflow }));
      workspace = await readyWorkspace(sink, (request.start as { workspace: WorkspacePlan }).workspace, { number: writer.number, task: request.task }).catch((error: unknown) => failure(error, "could not make the run's workspace"));
      if (fork !== undefined && !("code" in workspace)) for (const [type, data] of forkStartEvents(fork)) sink.append(type, data);
      // A fresh workspace is set up before its first stage; a failing setup fails the run before any agent starts.
      if (!("code" in workspace)) {
        const place = { runDir: writer.dir, workspace, redactor: request.settings.redactor, maxOutputChars: request.settings.maxOutputChars, signal: cancel.signal };
        workspace = (await setupRunWorkspace(sink, request.delivery, place)) ?? workspace;
      }
      start = fork?.start ?? { node: request.router.startId, context: {}, visits: {}, previous: { outcome: "succeeded" } };
    } else {
      // Where to go on is read from the log as it was: the new run.started changes the folded state.
      const point = resumePoint(resumed.state, request.router.startId, resumed.checkpoint);
      sink.append("run.started", { attempt: resumed.attempt, resumed: true, pid: process.pid, host: hostname() });
      if (resumed.workspace === undefined) workspace = await existingWorkspace(resumed.state);
      else {
        workspace = resumed.workspace;
        recordWorkspace(sink, workspace);
      }
      if (!("code" in workspace)) await salvage(sink, workspace, writer, request.task, point.inFlight);
      start = point.start;
    }
    if ("code" in workspace) {
      sink.append("run.failed", { error: workspace });
      return (result = { ...result, status: "failed", error: workspace });
    }
    const ready = workspace;
    const trace = new TraceStore(definedFields({ runDir: writer.dir, redactor: request.settings.redactor, maxChars: request.settings.maxOutputChars }));
    let decision = resumed?.decision;
    const sleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal }).catch(() => undefined);
    // People's inputs and answers reach whichever agent stage runs; what still waits at the end is rejected.
    people = await openPeopleChannel(writer.dir, sink, request.settings.peopleSettings);
    const settings: AgentRunSettings = { ...request.settings, people };
    threads = new AgentThreads({ dir: writer.dir, settings, workspace: ready, signal: cancel.signal }, { outside: sink, startedAt: startedMono });
    const run = { runId: writer.runId, number: writer.number, task: request.task };
    const artifactsSeen = await capturedSoFar(writer.dir);
    const end = await walkWorkflow({
      router: request.router,
      sink,
      start,
      signal: cancel.signal,
      sleep,
      checkpointCommit: async (stage) => {
        const sha = await commitStage(stage.sink, ready, run, stage);
        await captureRunArtifacts(stage.sink, request.delivery, { runDir: writer.dir, workspace: ready, redactor: request.settings.redactor, signal: cancel.signal }, artifactsSeen);
        return sha;
      },
      handlers: stageHandlers(
        {
          router: request.router,
          run,
          runDir: writer.dir,
          settings,
          startedAt: startedMono,
          resolveAgent: request.resolveAgent,
          commandEnv: request.commandEnv,
          trace,
          autoApprove: request.autoApprove,
          threads,
          sleep,
          delivery: request.delivery,
          takeDecision: () => {
            const taken = decision;
            decision = undefined;
            return taken;
          },
        },
        ready,
      ),
    });
    // Shared sessions end before the run does: their agent.finished precedes the final event.
    await threads.close();
    people.close();
    const head = ready.kind === "worktree" ? await git(ready.path, ["rev-parse", "HEAD"]).catch(() => undefined) : undefined;
    const decided = decideWorkflowEnd({
      end,
      cancelledBy: cancel.requestedBy(),
      usage: sink.state.usage,
      costUsd: sink.state.cost_usd,
      durationMs: request.settings.now().getTime() - started,
      commit: head !== undefined && head !== ready.baseSha ? head : undefined,
    });
    sink.append(decided.final.type, decided.final.data);
    result = { ...result, ...decided.result };
  } finally {
    await threads?.close();
    people?.close({ silently: true });
    proxied?.close();
    cancel.stop();
    await writer.close();
  }
  // Loaded at the run's end: the transcript renderer is no part of a run's start-up.
  const { writeRunTranscripts } = await import("../transcript/run-transcripts.ts");
  await writeRunTranscripts(live?.view(writer) ?? writer.readLog(), writer.dir, request.settings.redactor, { stepSummaryFile: request.settings.stepSummaryFile });
  return result;
}

/** A resumed run works where it worked before: its worktree must still be there. */
async function existingWorkspace(state: RunState): Promise<Workspace | { code: string; message: string }> {
  const recorded = state.workspace;
  if (recorded === undefined) return { code: "no_workspace", message: "the run never made its workspace; start it again" };
  const kind = recorded.kind === "in_place" ? "in_place" : "worktree";
  const exists = await git(recorded.path, ["rev-parse", "--show-toplevel"]).then(
    () => true,
    () => false,
  );
  if (!exists) return { code: "workspace_missing", message: `the run's worktree ${recorded.path} is gone (was it cleaned?): it cannot be resumed; fork it instead` };
  return definedFields({ kind, path: recorded.path, root: recorded.path, branch: recorded.branch, base: recorded.base, baseBranch: recorded.base_branch, baseSha: recorded.base_sha }) as Workspace;
}

/** What a crashed visit left uncommitted is kept: one salvage commit, before the visit runs again. */
async function salvage(sink: RunSink, workspace: Workspace, writer: RunLogWriter, task: string, visit: { stage: string; visit: number } | undefined): Promise<void> {
  if (workspace.kind !== "worktree") return;
  // A fan-in killed in the middle of a merge: back to the run's last commit (it merges again).
  await abortUnfinishedMerge(workspace);
  const scoped = visit === undefined ? sink : sink.inStage({ id: visit.stage, visit: visit.visit });
  await commitStage(scoped, workspace, { runId: writer.runId, number: writer.number, task }, undefined, "salvage");
}

function failure(error: unknown, doing: string): { code: string; message: string } {
  if (isBatonError(error)) return { code: error.code, message: error.toLine() };
  return { code: "internal", message: `Baton ${doing}: ${error instanceof Error ? error.message : String(error)}` };
}
