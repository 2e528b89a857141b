import { definedFields } from "@baton/protocol/core";
import { BatonError, isBatonError } from "../errors.ts";
import type { RunSink } from "../run/run-sink.ts";
import { commitWorkspace } from "../workspace/commit-workspace.ts";
import { gitFailure } from "../workspace/git-cli.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import type { StageRun } from "./walk-workflow.ts";

/**
 * A stage visit's checkpoint commit: what the visit changed, committed on the run's branch
 * with the stage in the message's first line and in `git.committed`. Returns the sha, or
 * undefined when nothing changed (or the run works in place, where Baton never commits).
 * `salvage` marks the commit of what a crashed visit left behind; a fan-out branch's commits
 * name the branch too.
 */
export async function commitStage(sink: RunSink, workspace: Workspace, run: { runId: string; number: number; task: string }, stage: StageRun | undefined, kind: "stage" | "salvage" = "stage"): Promise<string | undefined> {
  if (workspace.kind !== "worktree") return undefined;
  const id = stage?.node.id ?? sink.stage?.id;
  const branch = sink.stage?.branch === undefined ? "" : ` [${sink.stage.branch}]`;
  const prefix = `${kind === "salvage" ? `salvage${id === undefined ? "" : ` of ${id}`}` : (id ?? "stage")}${branch}`;
  try {
    const commit = await commitWorkspace(workspace, { ...run, task: `${prefix}: ${run.task}` });
    if (commit === undefined) return undefined;
    sink.append("git.committed", definedFields({ sha: commit.sha, branch: commit.branch, message: commit.message, files: commit.files, stage: id }));
    return commit.sha;
  } catch (error) {
    const message = isBatonError(error) ? error.toLine() : gitFailure(error);
    throw new BatonError("commit_failed", `could not commit stage ${id ?? ""} on ${workspace.branch ?? "the run's branch"}: ${message}`, { hint: `the changes are still in ${workspace.path}` });
  }
}
