import { BatonError, isBatonError } from "../errors.ts";
import { commitWorkspace, type WorkspaceCommit } from "../workspace/commit-workspace.ts";
import { gitFailure } from "../workspace/git-cli.ts";
import { openWorkspace, type Workspace } from "../workspace/open-workspace.ts";
import type { WorkspacePlan } from "../workspace/plan-workspace.ts";
import type { RunSink } from "./run-sink.ts";

/** Makes the run's workspace, named after the redacted task, and records `workspace.ready`. */
export async function readyWorkspace(sink: RunSink, plan: WorkspacePlan, run: { number: number; task: string }): Promise<Workspace> {
  const workspace = await openWorkspace(plan, { number: run.number, task: sink.redactText(run.task) });
  recordWorkspace(sink, workspace);
  return workspace;
}

/** Records `workspace.ready` for a workspace made (or, for a run continued on another worker, made again). */
export function recordWorkspace(sink: RunSink, workspace: Workspace): void {
  const data: Record<string, unknown> = { path: workspace.path, kind: workspace.kind };
  if (workspace.branch !== undefined) data["branch"] = workspace.branch;
  if (workspace.base !== undefined) data["base"] = workspace.base;
  if (workspace.baseBranch !== undefined) data["base_branch"] = workspace.baseBranch;
  if (workspace.baseSha !== undefined) data["base_sha"] = workspace.baseSha;
  if (workspace.includedDirty !== undefined) data["included_dirty"] = workspace.includedDirty;
  sink.append("workspace.ready", data);
}

/**
 * When the agent's work has ended, whatever its outcome: commits what is in the worktree and
 * records `git.committed`, or a `log` saying nothing changed. In place, nothing is committed.
 * The commit message is made from the redacted task: git keeps it outside Baton's redaction.
 * Throws a BatonError (`commit_failed`) when git refuses; the files stay in the worktree.
 */
export async function commitRunWork(sink: RunSink, workspace: Workspace, run: { runId: string; number: number; task: string }): Promise<WorkspaceCommit | undefined> {
  if (workspace.kind !== "worktree") return undefined;
  let commit: WorkspaceCommit | undefined;
  try {
    commit = await commitWorkspace(workspace, { ...run, task: sink.redactText(run.task) });
  } catch (error) {
    if (isBatonError(error)) throw error;
    throw new BatonError("commit_failed", `could not commit the run's changes on ${workspace.branch ?? "its branch"}: ${gitFailure(error)}`, {
      hint: `the changes are still in ${workspace.path}`,
    });
  }
  if (commit === undefined) {
    sink.append("log", { level: "info", code: "no_changes", message: `nothing changed in the worktree; no commit on ${workspace.branch ?? "the run's branch"}` });
    return undefined;
  }
  sink.append("git.committed", { sha: commit.sha, branch: commit.branch, message: commit.message, files: commit.files });
  return commit;
}
