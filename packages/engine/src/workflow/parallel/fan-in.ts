import { definedFields, type BranchState, type FanOutState } from "@baton/protocol/core";
import { git } from "../../workspace/git-cli.ts";
import type { Workspace } from "../../workspace/open-workspace.ts";
import type { RunSink } from "../../run/run-sink.ts";
import type { StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";
import { subtaskIntegrated, subtaskOf } from "../../pipeline/subtask-events.ts";
import { branchWorktreeNames, removeBranchWorktree } from "./branch-worktree.ts";
import { abortUnfinishedMerge, mergeBranch } from "./integrate.ts";
import { fanInOutcome, isMergeable, type IntegrationResult, type JoinPolicy } from "./join-outcome.ts";

export type FanInDeps = {
  /** The run's workspace: branches are merged into its branch. */
  workspace: Workspace;
  run: { runId: string; number: number };
};

/**
 * A fan-in (`tripleoctagon`): merges the branches of the fan-out that led here into the run's
 * branch, one at a time in branch order (`integration.completed`, or `integration.conflicted`
 * naming the files, the merge aborted, and on to the next). A failed or cancelled branch is
 * not merged. Its outcome: succeeded when every branch succeeded and was merged,
 * partially_succeeded when some were, failed when none was; the context gets
 * `parallel.results` (in branch order), `parallel.integrated` and `parallel.conflicted` (branch
 * ids) for the edges to route on. The branches' worktrees are removed afterwards; a git branch
 * with work the run's branch lacks is kept.
 */
export function fanInStage(deps: FanInDeps) {
  return async (stage: StageRun): Promise<StageResult> => {
    const { node, sink } = stage;
    const fanOut = sink.state.workflow.fan_outs.findLast((candidate) => candidate.fan_in === node.id && candidate.outcome !== undefined);
    if (fanOut === undefined) return { outcome: "failed", class: "structural", error: { code: "no_fan_out", message: `fan-in stage "${node.id}" was reached, but no fan-out's branches end here` } };
    if (deps.workspace.kind !== "worktree") return { outcome: "failed", class: "structural", error: { code: "fan_out_in_place", message: `fan-in stage "${node.id}" merges branches, and this run works in place` } };
    await abortUnfinishedMerge(deps.workspace);
    const before = await head(deps.workspace);
    const results: IntegrationResult[] = [];
    for (const branch of fanOut.branches) results.push(await integrate(sink, deps, node.id, branch));
    await removeWorktrees(sink, deps.workspace, fanOut);
    const policy: JoinPolicy = fanOut.join_policy === "first_success" ? "first_success" : "wait_all";
    const outcome = fanInOutcome(results, policy);
    const after = await head(deps.workspace);
    const integrated = results.filter((result) => result.integrated).map((result) => result.branch);
    const conflicted = results.filter((result) => result.conflicted_files !== undefined).map((result) => result.branch);
    // Subtasks (a foreach over a plan's list) that did not merge, for the stage that builds them again.
    const conflictedSubtasks = results.filter((result) => result.conflicted_files !== undefined && subtaskOf(result.item) !== undefined).map((result) => ({ ...(result.item as object), conflicts: result.conflicted_files }));
    const context_updates = { "parallel.results": results, "parallel.integrated": integrated, "parallel.conflicted": conflicted, "subtasks.conflicted": conflictedSubtasks, "subtasks.conflicted_count": conflictedSubtasks.length };
    const summary = `${integrated.length} of ${results.length} branches merged${conflicted.length === 0 ? "" : `, ${conflicted.length} in conflict`}`;
    return definedFields<StageResult>({
      outcome,
      summary,
      signals: { context_updates },
      commit: after === before ? undefined : after,
      class: outcome === "failed" ? "deterministic" : undefined,
      error: outcome === "failed" ? { code: "nothing_integrated", message: `fan-in stage "${node.id}" merged no branch (${summary})` } : undefined,
    });
  };
}

async function integrate(sink: RunSink, deps: FanInDeps, stage: string, branch: BranchState): Promise<IntegrationResult> {
  const outcome = branch.status === "pending" || branch.status === "running" ? "failed" : branch.status;
  const result: IntegrationResult = definedFields({ branch: branch.branch, outcome, head_sha: branch.head_sha, git_branch: branch.git_branch, item: branch.item, integrated: false });
  if (!isMergeable(outcome)) return result;
  const gitBranch = branch.git_branch;
  if (branch.head_sha === undefined) {
    const sha = await head(deps.workspace);
    sink.append("integration.completed", definedFields({ stage, branch: branch.branch, sha, git_branch: gitBranch, empty: true }));
    subtaskIntegrated(sink, branch.item, branch.branch, { commit: sha, conflicts: [] });
    return { ...result, integrated: true };
  }
  const message = `${stage}: merge branch ${branch.branch}${gitBranch === undefined ? "" : ` (${gitBranch})`}\n\nBaton run ${deps.run.runId} (run ${deps.run.number}).\n`;
  const merged = await mergeBranch(deps.workspace, { sha: branch.head_sha, message });
  if (merged.kind === "conflicted") {
    sink.append("integration.conflicted", definedFields({ stage, branch: branch.branch, files: merged.files, git_branch: gitBranch }));
    subtaskIntegrated(sink, branch.item, branch.branch, { commit: null, conflicts: merged.files });
    return { ...result, conflicted_files: merged.files };
  }
  sink.append("integration.completed", definedFields({ stage, branch: branch.branch, sha: merged.sha, git_branch: gitBranch, empty: merged.kind === "empty" ? true : undefined }));
  subtaskIntegrated(sink, branch.item, branch.branch, { commit: merged.sha, conflicts: [] });
  return definedFields({ ...result, integrated: true, merge_sha: merged.kind === "merged" ? merged.sha : undefined });
}

/** Every branch's worktree goes; a git branch holding work the run's branch lacks stays, and a log line says so. */
async function removeWorktrees(sink: RunSink, workspace: Workspace, fanOut: FanOutState): Promise<void> {
  for (const branch of fanOut.branches) {
    const names = branchWorktreeNames(workspace, branch.branch);
    try {
      const cleaned = await removeBranchWorktree(workspace, { path: branch.path ?? names.path, gitBranch: branch.git_branch ?? names.gitBranch, baseSha: fanOut.base_sha });
      if (cleaned.keptDirty === true) sink.append("log", { level: "warn", code: "branch_worktree_kept", message: `kept the worktree of branch ${branch.branch} (${branch.path ?? names.path}): it holds uncommitted changes` });
      else if (cleaned.branch?.action === "kept") sink.append("log", { level: "info", code: "branch_kept", message: `kept git branch ${cleaned.branch.name}: ${cleaned.branch.unmerged ?? 0} commit(s) not in the run's branch` });
    } catch (error) {
      sink.append("log", { level: "warn", code: "branch_worktree_kept", message: `could not remove the worktree of branch ${branch.branch}: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
}

async function head(workspace: Workspace): Promise<string> {
  return git(workspace.path, ["rev-parse", "HEAD"]);
}
