/**
 * @baton/engine/workflow: running a workflow (a new run or a resumed one) and answering its
 * gates. Its module graph holds no ACP client: an agent stage loads that when it first runs,
 * so a resumed run records its start without waiting for it.
 */
export { executeWorkflow, type WorkflowRunRequest, type LoadedWorkflow as RecordedWorkflow } from "./execute-workflow.ts";
export type { WorkflowRunResult } from "./workflow-end.ts";
export { definitionRouter, loadedWorkflow } from "./definition-router.ts";
export { answerGate, type GateDecision } from "./gate-answer.ts";
export { forkPoint, type ForkAt, type ForkOrigin, type ForkPoint } from "./fork-point.ts";
export type { AgentRunSettings, AgentToRun } from "../run/agent-run.ts";
export { proxySettingsFor } from "../run/proxy-settings.ts";
export type { RunProxySettings } from "../run/run-proxy.ts";
