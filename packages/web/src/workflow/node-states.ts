// What each node of a workflow's graph shows: its state as the run's folded events tell it.
import { isFinalStatus, type RunState } from "@baton/protocol/core";

export type NodeState = "not_visited" | "running" | "succeeded" | "failed" | "waiting";

/** A node's state and the word the page shows for it (which says more: "partially succeeded", "interrupted"). */
export type NodeView = { state: NodeState; words: string; visits: number };

/**
 * Each node's state from the fold: its latest stage attempt (in any branch) decides, a gate
 * that waits for an answer is `waiting`, and a stage still open when the run has ended (its
 * process died) is `failed`, never running forever.
 */
export function nodeStates(summary: RunState): Map<string, NodeView> {
  const { workflow } = summary;
  const views = new Map<string, NodeView>(workflow.nodes.map((node) => [node.id, { state: "not_visited", words: "not visited", visits: 0 }]));
  const ended = isFinalStatus(summary.status);
  for (const attempt of workflow.stages) {
    const previous = views.get(attempt.stage);
    if (previous === undefined) continue;
    const visits = Math.max(previous.visits, attempt.visit);
    if (attempt.status === "running") views.set(attempt.stage, ended ? { state: "failed", words: "interrupted", visits } : { state: "running", words: "running", visits });
    else if (attempt.status === "failed") views.set(attempt.stage, attempt.will_retry === true && !ended ? { state: "running", words: "retrying", visits } : { state: "failed", words: "failed", visits });
    else views.set(attempt.stage, { state: "succeeded", words: attempt.status.replace("_", " "), visits });
  }
  const gate = workflow.gate;
  if (gate !== undefined && !ended) {
    const view = views.get(gate.gate);
    if (view !== undefined) views.set(gate.gate, { ...view, state: "waiting", words: "waiting" });
  }
  return views;
}
