import type { AgentRunSettings, AgentToRun } from "../run/agent-run.ts";
import type { TraceStore } from "../trace/trace-store.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import type { AgentThreads } from "./agent-threads.ts";
import type { GateDecision } from "./gate-answer.ts";
import { lazyAgentStage } from "./handlers/lazy-agent-stage.ts";
import { commandStage } from "./handlers/command-stage.ts";
import { gateStage } from "./handlers/gate-stage.ts";
import { conditionalStage, markerStage, waitStage } from "./handlers/simple-stages.ts";
import { fanInStage } from "./parallel/fan-in.ts";
import { fanOutStage } from "./parallel/fan-out.ts";
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
  resolveAgent: (stage: string, agent: string | undefined, model: string | undefined) => Promise<AgentToRun>;
  commandEnv: Record<string, string>;
  trace: TraceStore;
  autoApprove: boolean;
  takeDecision: (gate: string) => GateDecision | undefined;
  /** The run's shared sessions (`thread_id`), in its own workspace: a branch's stages start sessions of their own. */
  threads: AgentThreads;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
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
    agent: lazyAgentStage(agentDeps, { readOnly: false }),
    prompt: lazyAgentStage(agentDeps, { readOnly: true }),
    command: commandStage({ cwd: workspace.path, env: deps.commandEnv, trace: deps.trace, redactor: deps.settings.redactor }),
    human: inBranch && !deps.autoApprove ? (stage) => Promise.resolve({ outcome: "failed", class: "structural", error: gateInBranchError(stage.node.id, stage.scope.branch ?? "") }) : gate,
    wait: waitStage({ now: deps.settings.now, sleep: deps.sleep }),
  };
  if (inBranch) return handlers;
  const fanOut = fanOutStage({ router: deps.router, workspace, run: deps.run, sleep: deps.sleep, handlersFor: (branch) => stageHandlers(deps, branch, true) });
  return { ...handlers, parallel: fanOut, foreach: fanOut, fan_in: fanInStage({ workspace, run: deps.run }) };
}
