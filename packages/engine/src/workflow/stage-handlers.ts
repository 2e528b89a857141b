import type { AgentRunSettings, AgentToRun } from "../run/agent-run.ts";
import type { TraceStore } from "../trace/trace-store.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import type { AgentThreads } from "./agent-threads.ts";
import type { GateDecision } from "./gate-answer.ts";
import { lazyAgentStage } from "./handlers/lazy-agent-stage.ts";
import { lazyStage } from "./handlers/lazy-stage.ts";
import { withArtefact } from "../pipeline/artefact-stage.ts";
import { withSubtaskRerun } from "../pipeline/subtask-rerun.ts";
import type { RunDelivery } from "../delivery/run-delivery.ts";
import { setupRunWorkspace } from "../delivery/run-around.ts";
import type { RunSink } from "../run/run-sink.ts";
import { gateStage } from "./handlers/gate-stage.ts";
import { conditionalStage, markerStage, waitStage } from "./handlers/simple-stages.ts";
import { gateInBranchError, type StageRunner } from "./walk-workflow.ts";
import type { WorkflowRouter } from "./workflow-router.ts";

/** What every stage of a run shares, wherever it works. */
export type StageHandlerDeps = {
  router: WorkflowRouter;
  run: { runId: string; number: number; task: string };
  runDir: string;
  settings: AgentRunSettings;
  /** When this attempt of the run started, in `performance.now()` ms: run-wide limits count from there. */
  startedAt: number;
  resolveAgent: (stage: string, agent: string | undefined, model: string | undefined, branch?: string) => Promise<AgentToRun>;
  commandEnv: Record<string, string>;
  trace: TraceStore;
  autoApprove: boolean;
  takeDecision: (gate: string) => GateDecision | undefined;
  /** The run's shared sessions (`thread_id`), in its own workspace: a branch's stages start sessions of their own. */
  threads: AgentThreads;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** `[setup]`, `[validation]`, `[artifacts]`, `[delivery]`: for validate and merge stages and each branch's setup. */
  delivery?: RunDelivery | undefined;
};

/**
 * The handler of every kind of stage, working in `workspace`: the run's own, or a fan-out
 * branch's worktree (`inBranch`), where a gate that nobody answers fails rather than pauses
 * and fan-outs do not nest.
 */
export function stageHandlers(deps: StageHandlerDeps, workspace: Workspace, inBranch = false): Readonly<Record<string, StageRunner>> {
  const agentDeps = { runDir: deps.runDir, settings: deps.settings, workspace, startedAt: deps.startedAt, router: deps.router, resolveAgent: deps.resolveAgent, threads: inBranch ? undefined : deps.threads };
  const gate = gateStage({ router: deps.router, autoApprove: deps.autoApprove, now: deps.settings.now, takeDecision: deps.takeDecision });
  const handlers: Record<string, StageRunner> = {
    start: markerStage,
    exit: markerStage,
    conditional: conditionalStage,
    agent: withSubtaskRerun(withArtefact(lazyAgentStage(agentDeps, { readOnly: false }), workspace.path), { workspace, run: deps.run }),
    prompt: lazyAgentStage(agentDeps, { readOnly: true }),
    // Loaded when a stage of their kind first runs (see lazyStage): start-up records the run's start without them.
    command: lazyStage(() => import("./handlers/command-stage.ts").then((module) => module.commandStage({ cwd: workspace.path, env: deps.commandEnv, trace: deps.trace, redactor: deps.settings.redactor }))),
    human: inBranch && !deps.autoApprove ? (stage) => Promise.resolve({ outcome: "failed", class: "structural", error: gateInBranchError(stage.node.id, stage.scope.branch ?? "") }) : gate,
    wait: waitStage({ now: deps.settings.now, sleep: deps.sleep }),
    validate: lazyStage(() => import("./handlers/validate-stage.ts").then((module) => module.validateStage({ cwd: workspace.path, delivery: deps.delivery, trace: deps.trace, redactor: deps.settings.redactor }))),
    merge: lazyStage(() => import("./handlers/merge-stage.ts").then((module) => module.mergeStage({ workspace, delivery: deps.delivery, run: deps.run }, inBranch))),
    pull_request: lazyStage(() => import("./handlers/pull-request-stage.ts").then((module) => module.pullRequestStage({ workspace, delivery: deps.delivery, run: deps.run }, inBranch))),
    subtasks: lazyStage(() => import("../pipeline/subtasks-stage.ts").then((module) => module.subtasksStage({ cwd: workspace.path }))),
  };
  if (inBranch) return handlers;
  const setupBranch = (sink: RunSink, branch: Workspace, name: string, signal: AbortSignal) =>
    setupRunWorkspace(sink, deps.delivery, { runDir: deps.runDir, workspace: branch, redactor: deps.settings.redactor, maxOutputChars: deps.settings.maxOutputChars, signal }, name);
  const fanOut = lazyStage(() =>
    import("./parallel/fan-out.ts").then((module) => module.fanOutStage({ router: deps.router, workspace, run: deps.run, sleep: deps.sleep, handlersFor: (branch) => stageHandlers(deps, branch, true), setupBranch })),
  );
  const fanIn = lazyStage(() => import("./parallel/fan-in.ts").then((module) => module.fanInStage({ workspace, run: deps.run })));
  return { ...handlers, parallel: fanOut, foreach: fanOut, fan_in: fanIn };
}
