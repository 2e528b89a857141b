import type { StageOutcome } from "../stage-result.ts";

/** How one branch ended: a stage outcome, or `cancelled` (the join policy or the run stopped it). */
export type BranchOutcome = StageOutcome | "cancelled";

export type JoinPolicy = "wait_all" | "first_success";

/** What the fan-in did with one branch: merged it, or not (with the files in conflict when a merge failed). */
export type IntegrationResult = {
  branch: string;
  outcome: BranchOutcome;
  head_sha?: string;
  git_branch?: string;
  item?: unknown;
  integrated: boolean;
  /** The merge commit, when there was something to merge. */
  merge_sha?: string;
  /** The paths in conflict: the merge was aborted. */
  conflicted_files?: string[];
};

/** Branches whose work the fan-in merges: a failed or cancelled branch's commits stay on its own git branch. */
export function isMergeable(outcome: BranchOutcome): boolean {
  return outcome === "succeeded" || outcome === "partially_succeeded" || outcome === "skipped";
}

/**
 * The branches that count for a fan-out's outcome: all of them, except under `first_success`
 * once one succeeded, where the branches it cancelled do not count against it.
 */
function counted<T extends { outcome: BranchOutcome }>(ends: readonly T[], policy: JoinPolicy, won: (end: T) => boolean): readonly T[] {
  return policy === "first_success" && ends.some(won) ? ends.filter((end) => end.outcome !== "cancelled") : ends;
}

/**
 * `parallel.completed`'s outcome from the branches' ends: succeeded when every (counted) branch
 * succeeded, failed when none did any good, partially_succeeded between; skipped with no branch.
 */
export function joinOutcome(ends: readonly { outcome: BranchOutcome }[], policy: JoinPolicy): StageOutcome {
  const those = counted(ends, policy, (end) => end.outcome === "succeeded");
  if (those.length === 0) return "skipped";
  if (those.every((end) => end.outcome === "succeeded" || end.outcome === "skipped")) return "succeeded";
  return those.some((end) => isMergeable(end.outcome)) ? "partially_succeeded" : "failed";
}

/**
 * The fan-in's outcome: succeeded when every (counted) branch succeeded and was merged,
 * partially_succeeded when some were merged, failed when none was; skipped with no branch.
 */
export function fanInOutcome(results: readonly IntegrationResult[], policy: JoinPolicy): StageOutcome {
  const those = counted(results, policy, (result) => result.outcome === "succeeded" && result.integrated);
  if (those.length === 0) return "skipped";
  if (those.every((result) => result.integrated && (result.outcome === "succeeded" || result.outcome === "skipped"))) return "succeeded";
  return those.some((result) => result.integrated) ? "partially_succeeded" : "failed";
}
