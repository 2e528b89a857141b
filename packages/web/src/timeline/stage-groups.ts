// A workflow run's timeline grouped by stage: each stage visit's items together, at the place
// of the visit's first item; a fan-out branch's visits under their branch. Events outside any
// stage (the run's start, a pause, the end) stay lines of their own, in order.
import type { StageRef, TimelineItem } from "./items.ts";
import { stageKey } from "./timeline.ts";

export type StageGroup = { kind: "stage"; key: string; stage: StageRef; items: TimelineItem[] };
export type BranchGroup = { kind: "branch"; branch: string; stages: StageGroup[] };
export type TimelineSection = { kind: "item"; item: TimelineItem } | StageGroup | BranchGroup;

/** The sections the items make, in the order each first appears. Every item is in exactly one. */
export function groupByStage(items: readonly TimelineItem[]): TimelineSection[] {
  const sections: TimelineSection[] = [];
  const stages = new Map<string, StageGroup>();
  const branches = new Map<string, BranchGroup>();
  for (const item of items) {
    if (item.stage === undefined) {
      sections.push({ kind: "item", item });
      continue;
    }
    const key = stageKey(item.stage);
    let group = stages.get(key);
    if (group === undefined) {
      group = { kind: "stage", key, stage: item.stage, items: [] };
      stages.set(key, group);
      const branchId = item.stage.branch;
      if (branchId === undefined) sections.push(group);
      else {
        let branch = branches.get(branchId);
        if (branch === undefined) {
          branch = { kind: "branch", branch: branchId, stages: [] };
          branches.set(branchId, branch);
          sections.push(branch);
        }
        branch.stages.push(group);
      }
    }
    group.items.push(item);
  }
  return sections;
}
