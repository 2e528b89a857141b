import { itemFields, subtaskUpdated } from "../../pipeline/subtask-events.ts";
import { definedFields } from "@baton/protocol/core";
import { BatonError, isBatonError } from "../../errors.ts";
import { git } from "../../workspace/git-cli.ts";
import type { Workspace } from "../../workspace/open-workspace.ts";
import type { RunSink } from "../../run/run-sink.ts";
import { commitStage } from "../commit-stage.ts";
import type { StageHalt } from "../stage-result.ts";
import { walkWorkflow, type StageRun, type StageRunner, type WalkOptions } from "../walk-workflow.ts";
import type { WorkflowRouter } from "../workflow-router.ts";
import type { PlannedBranch } from "./branch-plan.ts";
import { branchWorktreeNames, openBranchWorktree } from "./branch-worktree.ts";
import type { BranchOutcome } from "./join-outcome.ts";

export type BranchRunDeps = {
  router: WorkflowRouter;
  /** The run's own workspace: branch worktrees are made beside it, from its branch. */
  workspace: Workspace;
  run: { runId: string; number: number; task: string };
  /** The handlers a branch's stages run with, working in the branch's worktree. */
  handlersFor: (workspace: Workspace) => Readonly<Record<string, StageRunner | undefined>>;
  sleep: WalkOptions["sleep"];
  /** `[setup]` in a branch's worktree before its first stage; the failure that fails the branch. */
  setupBranch?: ((sink: RunSink, workspace: Workspace, branch: string, signal: AbortSignal) => Promise<{ code: string; message: string } | undefined>) | undefined;
};

/** How one branch ended, as `branch.completed` records it. */
export type BranchEnd = {
  branch: string;
  outcome: BranchOutcome;
  git_branch: string;
  head_sha?: string;
  error?: { code: string; message: string };
  /** A run-wide limit stopped it: the whole fan-out stops. */
  halt?: StageHalt;
};

/**
 * Runs one branch of a fan-out: `branch.started`, its worktree (made, or taken back on a
 * resume, with what a crash left uncommitted saved first), a walk from its first stage to the
 * fan-in with its own copy of the context (a `foreach` item as `context.item` and
 * `context.item_index`) and its own commits, then `branch.completed`, on every path.
 */
export async function runBranch(deps: BranchRunDeps, fanOut: StageRun, planned: PlannedBranch, join: { fanIn: string; baseSha: string; signal: AbortSignal; cancelledBecause: () => string | undefined }): Promise<BranchEnd> {
  const sink = fanOut.sink.inStage({ ...fanOut.scope, branch: planned.branch });
  const names = branchWorktreeNames(deps.workspace, planned.branch);
  sink.append("branch.started", { stage: fanOut.node.id, branch: planned.branch, target: planned.target, path: names.path, git_branch: names.gitBranch });
  subtaskUpdated(sink, planned.item, planned.branch, "building");
  let end: BranchEnd;
  try {
    const workspace = await openBranchWorktree(deps.workspace, planned.branch, join.baseSha);
    await commitStage(sink, workspace, deps.run, undefined, "salvage");
    const setupError = await deps.setupBranch?.(sink, workspace, planned.branch, join.signal);
    if (setupError !== undefined) throw new BatonError(setupError.code, setupError.message);
    const context = planned.index === undefined ? { ...fanOut.context } : { ...fanOut.context, item: planned.item, item_index: planned.index, ...itemFields(planned.item) };
    const walked = await walkWorkflow({
      router: deps.router,
      sink: fanOut.sink,
      handlers: deps.handlersFor(workspace),
      checkpointCommit: (stage) => commitStage(stage.sink, workspace, deps.run, stage),
      start: { node: planned.target, context, visits: {}, previous: { outcome: "succeeded" } },
      signal: join.signal,
      sleep: deps.sleep,
      branch: { id: planned.branch, fanIn: join.fanIn },
    });
    const head = await git(workspace.path, ["rev-parse", "HEAD"]);
    end = definedFields({ branch: planned.branch, git_branch: names.gitBranch, head_sha: head === join.baseSha ? undefined : head, ...branchOutcome(walked, join.cancelledBecause) });
  } catch (error) {
    const info = isBatonError(error) ? { code: error.code, message: error.toLine() } : { code: "internal", message: `Baton failed in branch ${planned.branch}: ${error instanceof Error ? error.message : String(error)}` };
    end = { branch: planned.branch, git_branch: names.gitBranch, outcome: "failed", error: info };
  }
  sink.append("branch.completed", definedFields({ stage: fanOut.node.id, branch: planned.branch, outcome: end.outcome, head_sha: end.head_sha, error: end.error }));
  subtaskUpdated(sink, planned.item, planned.branch, end.outcome === "cancelled" ? "cancelled" : end.outcome === "failed" ? "failed" : "built");
  return end;
}

function branchOutcome(walked: Awaited<ReturnType<typeof walkWorkflow>>, cancelledBecause: () => string | undefined): Pick<BranchEnd, "outcome" | "error" | "halt"> {
  switch (walked.kind) {
    case "joined":
      return { outcome: walked.outcome };
    case "failed":
      return { outcome: "failed", error: walked.error };
    case "exited":
      return { outcome: "failed", error: { code: "branch_left_fan_out", message: `the branch reached the exit stage "${walked.stage}" before its fan-in` } };
    case "halted":
      if (walked.halt.kind === "stopped") return { outcome: "failed", error: { code: "stopped", message: `the run was stopped (${walked.halt.by})` }, halt: walked.halt };
      return { outcome: "cancelled", error: { code: "cancelled", message: cancelledBecause() ?? "the run was cancelled" } };
  }
}
