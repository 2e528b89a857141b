/**
 * @baton/engine/run: what `baton run` needs to run one agent on a task, without the workflow
 * executor and its graph language (a plain run loads neither).
 */
export { executeRun, type RunRequest, type RunResult } from "./execute-run.ts";
export type { RunLogWriter } from "./run-sink.ts";
export { describeRepo, type RepoInfo } from "../git/repo.ts";
export { readRepoStatus, type RepoStatus } from "../git/repo-status.ts";
export { planWorkspace, type WorkspacePlan } from "../workspace/plan-workspace.ts";
export { proxySettingsFor } from "./proxy-settings.ts";
