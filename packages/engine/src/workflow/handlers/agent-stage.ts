import type { PermissionRule } from "../../permissions/policy.ts";
import { runConductedAgent, type AgentRunSettings, type AgentToRun } from "../../run/agent-run.ts";
import type { AgentThreads } from "../agent-threads.ts";
import { git } from "../../workspace/git-cli.ts";
import type { Workspace } from "../../workspace/open-workspace.ts";
import { agentStageResult, type StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";
import type { WorkflowRouter } from "../workflow-router.ts";

export type AgentStageDeps = {
  runDir: string;
  settings: AgentRunSettings;
  workspace: Workspace;
  /** When the run (this attempt of it) started, in `performance.now()` ms: run-wide limits count from there. */
  startedAt: number;
  router: WorkflowRouter;
  /** The agent a stage runs: its own `agent=`/`model=` (or the stylesheet's), else the run's. */
  resolveAgent: (stage: string, agent: string | undefined, model: string | undefined, branch?: string) => Promise<AgentToRun>;
  /** The sessions stages share by `thread_id`; none in a fan-out's branch, whose stages each start their own. */
  threads?: AgentThreads | undefined;
};

/** A prompt stage answers and changes nothing: every tool call that could change something is refused. */
const READ_ONLY_RULES: readonly PermissionRule[] = ["edit", "delete", "move", "execute"].map((kind) => ({ name: `stage:read-only-${kind}`, action: "deny" as const, kind }));

/**
 * An agent stage (`box`), or with `readOnly` a prompt stage (`tab`): the node's prompt to its
 * agent through the conductor, with every limit, retry, stall, loop and hand-back behaviour a
 * run has. The outcome and routing signals come from the session's end and its final message.
 */
export function agentStage(deps: AgentStageDeps, options: { readOnly: boolean }) {
  return async (stage: StageRun): Promise<StageResult> => {
    const { node } = stage;
    const chosen = deps.router.agentOf(node.id);
    const agent = await deps.resolveAgent(node.id, chosen.agent, chosen.model, stage.scope.branch);
    const prompt = await deps.router.prompt(node.id, stage.context);
    const headBefore = options.readOnly ? await headOf(deps.workspace) : undefined;
    let lastMessage = "";
    const stopListening = stage.sink.onAppend((event) => {
      if (event.type === "agent.message" && event.stage?.id === stage.scope.id && event.stage.visit === stage.scope.visit && typeof event.data["text"] === "string") lastMessage = event.data["text"];
    });
    const timeout = new AbortController();
    const signal = AbortSignal.any([stage.signal, timeout.signal]);
    const timer = node.timeout_ms === undefined ? undefined : setTimeout(() => timeout.abort(), node.timeout_ms);
    const settings: AgentRunSettings = { ...deps.settings, requireOutput: "none", rules: options.readOnly ? [...READ_ONLY_RULES, ...deps.settings.rules] : deps.settings.rules };
    let outcome;
    try {
      outcome =
        node.thread_id === undefined || options.readOnly || deps.threads === undefined
          ? await runConductedAgent(stage.sink, { dir: deps.runDir, settings, agent, prompt, workspace: deps.workspace, signal, startedAt: deps.startedAt })
          : await deps.threads.prompt(node.thread_id, agent, { sink: stage.sink, prompt, signal });
    } finally {
      clearTimeout(timer);
      stopListening();
    }
    if (timeout.signal.aborted && !stage.signal.aborted) {
      return { outcome: "failed", class: "deterministic", usage: outcome.usage, error: { code: "stage_timeout", message: `stage "${node.id}" ran past its timeout of ${node.timeout_ms} ms` } };
    }
    const result = agentStageResult(outcome, deps.router.signalsOf(lastMessage), node.auto_status);
    if (options.readOnly && (await changedSince(deps.workspace, headBefore))) return refuseChanges(deps.workspace, node.id, result);
    return result;
  };
}

async function headOf(workspace: Workspace): Promise<string | undefined> {
  return git(workspace.path, ["rev-parse", "HEAD"]).catch(() => undefined);
}

/** Uncommitted changes, or a commit the agent made itself, since the stage began. */
async function changedSince(workspace: Workspace, head: string | undefined): Promise<boolean> {
  const status = await git(workspace.path, ["status", "--porcelain", "--untracked-files=all"]);
  return status !== "" || (await headOf(workspace)) !== head;
}

/** A prompt stage that changed files anyway fails; its changes are put aside in a stash, never kept on the branch. */
async function refuseChanges(workspace: Workspace, stage: string, result: StageResult): Promise<StageResult> {
  await git(workspace.path, ["stash", "push", "--include-untracked", "--quiet", "-m", `baton: changes refused in prompt stage ${stage}`]).catch(() => undefined);
  return { ...result, outcome: "failed", class: "deterministic", error: { code: "prompt_changed_files", message: `prompt stage "${stage}" changed files, which a prompt stage may not do; the changes were put aside in a git stash` } };
}
