import { openStages, type RunState } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import type { WalkStart } from "./walk-workflow.ts";
import type { StageOutcome } from "./stage-result.ts";

/** Where a resumed run goes on, from its folded log alone (the log is the state). */
export type ResumePoint = {
  start: WalkStart;
  /**
   * The visit the run was in when it stopped without a checkpoint (one a dead process left,
   * which recovery has ended as interrupted, or one that failed with no way on): what it left
   * uncommitted is salvaged in its name before it runs again.
   */
  inFlight?: { stage: string; visit: number } | undefined;
};

/**
 * The walk's start for `baton resume` (and for an answered gate): after the last checkpoint,
 * with its context and visit counts, so the visit in flight runs again and no completed visit
 * does (given an earlier checkpoint, the visits after it run again). A gate that waits keeps its open visit. Refuses a run that cannot go on.
 */
export function resumePoint(state: RunState, startId: string, checkpointSeq?: number): ResumePoint {
  if (state.status !== "paused" && state.status !== "failed") {
    throw new BatonError("not_resumable", `run ${state.number ?? state.run ?? ""} is ${state.status}: only a paused or failed run can be resumed`, {
      hint: state.status === "running" ? "it is still running; follow it with baton events RUN --follow" : "start a new run, or fork this one with baton fork RUN --at STAGE",
    });
  }
  const workflow = state.workflow;
  // Another than the last: the newest a lost worker pushed to the remote.
  const checkpoint = checkpointSeq === undefined ? workflow.checkpoints.at(-1) : workflow.checkpoints.find((saved) => saved.seq === checkpointSeq);
  if (checkpointSeq !== undefined && checkpoint === undefined) throw new BatonError("not_resumable", `run ${state.number ?? ""} has no checkpoint at seq ${checkpointSeq}`, { hint: "resume it from its last checkpoint" });
  const gate = workflow.gate;
  // Visits a dead process left open were ended by recovery (store/recovery.ts) before this
  // resume: the only visit still open here is a gate that waits for its answer.
  const waiting = gate === undefined ? undefined : openStages(workflow).find((visit) => visit.stage === gate.gate && visit.branch === undefined);
  const visits = { ...(checkpoint?.visits ?? {}) };
  const previous = { outcome: lastOutcome(state, checkpoint?.stage) };
  if (waiting !== undefined) {
    return { start: { node: waiting.stage, context: { ...workflow.context }, visits, previous, openVisit: waiting.visit } };
  }
  if (checkpoint !== undefined && checkpoint.next === undefined) {
    throw new BatonError("not_resumable", `run ${state.number ?? ""} already reached its exit stage`, { hint: "start a new run, or fork it with baton fork RUN --at STAGE" });
  }
  const last = workflow.stages.findLast((visit) => visit.branch === undefined);
  const inFlight = last === undefined || (last.stage === checkpoint?.stage && last.visit === checkpoint.visit) ? undefined : { stage: last.stage, visit: last.visit };
  return { start: { node: checkpoint?.next ?? startId, context: { ...(checkpoint?.context ?? {}) }, visits, previous }, inFlight };
}

function lastOutcome(state: RunState, stage: string | undefined): StageOutcome {
  if (stage === undefined) return "succeeded";
  const visit = state.workflow.stages.findLast((s) => s.stage === stage && s.branch === undefined && s.status !== "running");
  return visit === undefined || visit.status === "running" ? "succeeded" : visit.status;
}
