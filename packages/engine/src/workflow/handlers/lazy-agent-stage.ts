import type { StageRunner } from "../walk-workflow.ts";
import type { AgentStageDeps } from "./agent-stage.ts";
import { lazyStage } from "./lazy-stage.ts";

/**
 * The agent (and prompt) handler, its module loaded when a stage first runs an agent: the ACP
 * client and the conductor are most of the engine's module graph, and a workflow that resumes
 * at a gate, a command or its exit records its start without waiting for them.
 */
export function lazyAgentStage(deps: AgentStageDeps, options: { readOnly: boolean }): StageRunner {
  return lazyStage(() => import("./agent-stage.ts").then((module) => module.agentStage(deps, options)));
}
