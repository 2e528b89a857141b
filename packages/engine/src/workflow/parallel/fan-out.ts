import { INTERRUPTED_CODE } from "../../store/file/recovery/interrupted-ends.ts";
import { definedFields, type FanOutState } from "@baton/protocol/core";
import { git } from "../../workspace/git-cli.ts";
import type { StageHalt, StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";
import { planBranches, type PlannedBranch } from "./branch-plan.ts";
import { branchWorktreeNames } from "./branch-worktree.ts";
import { joinOutcome } from "./join-outcome.ts";
import { runBranch, type BranchEnd, type BranchRunDeps } from "./run-branch.ts";
import { runLimited } from "./run-limited.ts";

/**
 * A fan-out: a parallel stage (`component`, one branch per out-edge) or a `foreach` (one
 * branch per item of a context list, all through its one out-edge). `parallel.started`, then
 * each branch in a worktree of its own from the run's branch at this checkpoint, `max_parallel`
 * at a time in branch order, then `parallel.completed` with every branch's end in branch
 * order, and on to the fan-in (which merges them). `wait_all` lets every branch finish;
 * `first_success` cancels the others once one succeeds, and nothing else ever cancels a
 * branch but the run's own cancel or a run-wide limit. A visit run again after a crash does
 * not run the branches that had ended.
 */
export function fanOutStage(deps: BranchRunDeps) {
  return async (stage: StageRun): Promise<StageResult> => {
    const { node, scope } = stage;
    if (deps.workspace.kind !== "worktree") {
      return { outcome: "failed", class: "structural", error: { code: "fan_out_in_place", message: `${node.handler} stage "${node.id}" runs branches in worktrees of their own, and this run works in place: run it without --in-place` } };
    }
    const plan = planBranches({ node, targets: deps.router.branchTargets(node.id), fanIn: deps.router.fanIn(node.id), context: stage.context, visit: scope.visit });
    if ("error" in plan) return { outcome: "failed", class: "structural", error: plan.error };
    const earlier = stage.sink.state.workflow.fan_outs.findLast((fanOut) => fanOut.stage === node.id && fanOut.visit === scope.visit);
    const baseSha = earlier?.base_sha ?? (await git(deps.workspace.path, ["rev-parse", "HEAD"]));
    const ends = new Map<string, BranchEnd>(reusedEnds(deps, earlier, plan.branches));
    stage.sink.append(
      "parallel.started",
      definedFields({
        stage: node.id,
        branches: plan.branches.map((branch) => definedFields({ branch: branch.branch, target: branch.target, item: branch.item })),
        join_policy: plan.joinPolicy,
        max_parallel: plan.maxParallel,
        base_sha: baseSha,
        fan_in: plan.fanIn,
        reused: ends.size === 0 ? undefined : [...ends.keys()],
      }),
    );
    const cancel = new AbortController();
    let cancelledBecause: string | undefined;
    let stopped: StageHalt | undefined;
    const winner = () => [...ends.values()].find((end) => end.outcome === "succeeded");
    const stopOthers = (why: string) => {
      cancelledBecause ??= why;
      cancel.abort();
    };
    if (plan.joinPolicy === "first_success" && winner() !== undefined) stopOthers(`branch ${winner()?.branch ?? ""} succeeded first`);
    const signal = AbortSignal.any([stage.signal, cancel.signal]);
    const toRun = plan.branches.filter((branch) => !ends.has(branch.branch));
    await runLimited(toRun, plan.maxParallel, async (branch) => {
      // A branch the join policy (or the run's cancel) stopped before its turn never starts.
      if (signal.aborted) {
        ends.set(branch.branch, notStarted(deps, stage, branch, cancelledBecause ?? "the run was cancelled"));
        return;
      }
      const end = await runBranch(deps, stage, branch, { fanIn: plan.fanIn, baseSha, signal, cancelledBecause: () => cancelledBecause });
      ends.set(branch.branch, end);
      if (end.halt !== undefined) {
        stopped ??= end.halt;
        stopOthers(`the run was stopped in branch ${branch.branch}`);
      } else if (plan.joinPolicy === "first_success" && end.outcome === "succeeded") stopOthers(`branch ${branch.branch} succeeded first`);
    });
    const ordered = plan.branches.map((branch) => ends.get(branch.branch) as BranchEnd);
    const outcome = joinOutcome(ordered, plan.joinPolicy);
    stage.sink.append("parallel.completed", {
      stage: node.id,
      outcome,
      results: ordered.map((end) => definedFields({ branch: end.branch, outcome: end.outcome, head_sha: end.head_sha, git_branch: end.git_branch, error: end.error })),
    });
    if (stage.signal.aborted) return { outcome: "failed", class: "cancelled", error: { code: "cancelled", message: "the fan-out was cancelled" }, halt: { kind: "cancelled" } };
    if (stopped !== undefined) return { outcome: "failed", class: "budget_exhausted", error: { code: "stopped", message: "a run-wide limit stopped the fan-out" }, halt: stopped };
    const summary = `${ordered.filter((end) => end.outcome === "succeeded").length} of ${ordered.length} branches succeeded`;
    if (outcome === "failed") return { outcome, class: "deterministic", error: { code: "branches_failed", message: `no branch of ${node.handler} stage "${node.id}" succeeded` }, summary, next: plan.fanIn };
    return { outcome, summary, next: plan.fanIn };
  };
}

/**
 * Branches an earlier attempt of this visit saw end (before a crash): their ends stand. A
 * branch that recovery ended for the crash itself (`interrupted`) did not end: it runs again.
 */
function reusedEnds(deps: BranchRunDeps, earlier: FanOutState | undefined, planned: readonly PlannedBranch[]): [string, BranchEnd][] {
  if (earlier === undefined) return [];
  const wanted = new Set(planned.map((branch) => branch.branch));
  return earlier.branches
    .filter((branch) => wanted.has(branch.branch) && branch.status !== "pending" && branch.status !== "running" && branch.error?.code !== INTERRUPTED_CODE)
    .map((branch) => [branch.branch, definedFields({ branch: branch.branch, outcome: branch.status as BranchEnd["outcome"], git_branch: branch.git_branch ?? branchWorktreeNames(deps.workspace, branch.branch).gitBranch, head_sha: branch.head_sha, error: branch.error })]);
}

/**
 * A branch cancelled before its turn came: no worktree, no `branch.started`, but its
 * `branch.completed` all the same, so every branch `parallel.started` names has one end.
 */
function notStarted(deps: BranchRunDeps, stage: StageRun, branch: PlannedBranch, why: string): BranchEnd {
  const end: BranchEnd = { branch: branch.branch, outcome: "cancelled", git_branch: branchWorktreeNames(deps.workspace, branch.branch).gitBranch, error: { code: "cancelled", message: `${why}: the branch never started` } };
  stage.sink.inStage({ ...stage.scope, branch: branch.branch }).append("branch.completed", { stage: stage.node.id, branch: branch.branch, outcome: end.outcome, error: end.error });
  return end;
}
