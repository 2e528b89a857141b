import type { RunDelivery } from "../../delivery/run-delivery.ts";
import { mergeRunBranch } from "../../delivery/run-around.ts";
import type { Workspace } from "../../workspace/open-workspace.ts";
import type { StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";

export type MergeStageDeps = { workspace: Workspace; delivery: RunDelivery | undefined; run: { runId: string; number: number; task: string } };

/**
 * A merge stage (`type=merge`, usually behind a gate): the run's branch, as the checkpoints
 * before it committed it, merged into its base (`strategy=`, else `[delivery] strategy`) with
 * `git.merged`; a conflict (`merge.conflicted`, nothing changed) or a refusal fails the stage,
 * routed like any failure. The branch's worktree is left as it is.
 */
export function mergeStage(deps: MergeStageDeps, inBranch: boolean) {
  return async (stage: StageRun): Promise<StageResult> => {
    if (inBranch) return { outcome: "failed", class: "structural", error: { code: "merge_in_branch", message: `merge stage "${stage.node.id}" is inside a fan-out branch: only the run's own branch merges into its base` } };
    const strategy = stage.node.merge_strategy ?? deps.delivery?.strategy ?? "merge";
    const delivery: RunDelivery = { ...(deps.delivery ?? { setup: [], validation: { commands: [], timeoutMs: 0, maxFixRounds: 0 }, artifacts: { include: [], maxBytes: 0 }, commandEnv: {}, strategy, github: { remote: "origin", draft: false, apiUrl: "https://api.github.com" } }), merge: { strategy } };
    const error = await mergeRunBranch(stage.sink, delivery, deps.workspace, deps.run);
    if (error === undefined) return { outcome: "succeeded", summary: `merged ${deps.workspace.branch ?? ""} into ${deps.workspace.baseBranch ?? ""} (${strategy})`, signals: { context_updates: { "merge.merged": true } } };
    return { outcome: "failed", class: "deterministic", error, signals: { context_updates: { "merge.merged": false, "merge.error": error.code } } };
  };
}
