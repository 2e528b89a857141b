import { definedFields, foldRun, type CheckpointState, type Envelope, type RunState } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import type { StageOutcome } from "./stage-result.ts";
import type { WalkStart } from "./walk-workflow.ts";

/** The checkpoint to fork at, as `--at STAGE[@VISIT]` names it: without a visit, the stage's last. */
export type ForkAt = { stage: string; visit?: number | undefined };

/** Where a forked run comes from, as `run.created.origin` records it. */
export type ForkOrigin = { run: string; number?: number | undefined; stage: string; visit: number; commit?: string | undefined };

/**
 * A new run's start from another run's checkpoint: its origin, the commit its branch starts
 * at, where its walk begins, and the checkpoint itself, which the new run's log records first.
 */
export type ForkPoint = { origin: ForkOrigin; commit: string; start: WalkStart; checkpoint: Record<string, unknown> };

/**
 * The start of `baton fork RUN --at STAGE[@VISIT]`, from the origin run's log alone: the
 * checkpoint's context and visit counts, the walk going on at its `next`, the new branch made
 * at the commit the run's branch had then (the checkpoint's own, or the last one before it when
 * that visit changed nothing). Any run with checkpoints can be forked, a failed one too.
 * Refuses, naming the checkpoints there are, a run that is not a workflow run, a stage or
 * visit with no checkpoint, the exit's checkpoint (nothing runs after it), and a run that
 * worked in place (it has no commits).
 */
export function forkPoint(events: readonly Envelope[], at: ForkAt): ForkPoint {
  const state = foldRun(events);
  const label = `run ${state.number ?? state.run ?? ""}`;
  const workflow = state.workflow;
  if (workflow.name === undefined) throw new BatonError("not_forkable", `${label} is not a workflow run`, { hint: "only runs started with --workflow can be forked" });
  const all = workflow.checkpoints;
  const named = all.filter((checkpoint) => checkpoint.stage === at.stage);
  const checkpoint = at.visit === undefined ? named.at(-1) : named.find((candidate) => candidate.visit === at.visit);
  if (checkpoint === undefined) {
    const what = named.length === 0 ? `stage "${at.stage}"` : `visit ${at.visit} of stage "${at.stage}"`;
    throw new BatonError("no_checkpoint", `${label} has no checkpoint of ${what}`, { hint: all.length === 0 ? "it saved none: start a new run" : `fork at one of ${list(all)}` });
  }
  const where = `${checkpoint.stage}@${checkpoint.visit}`;
  if (checkpoint.next === undefined) {
    throw new BatonError("no_checkpoint", `${label}'s checkpoint ${where} is its exit: nothing runs after it`, { hint: `fork at an earlier one: ${list(all.filter((c) => c.next !== undefined))}` });
  }
  const commit = headAt(events, checkpoint) ?? state.workspace?.base_sha;
  if (state.workspace?.kind !== "worktree" || commit === undefined) {
    throw new BatonError("not_forkable", `${label} worked in place: it has no commits to branch a fork from`, { hint: "start a new run instead" });
  }
  const { stage, visit, context, next, visits } = checkpoint;
  return {
    origin: definedFields({ run: state.run ?? "", number: state.number, stage, visit, commit }),
    commit,
    start: { node: next, context: { ...context }, visits: { ...visits }, previous: { outcome: outcomeOf(state, checkpoint) } },
    checkpoint: { stage, visit, commit, context: { ...context }, next, visits: { ...visits } },
  };
}

/**
 * What a fork's log holds before its first stage: the context it starts with (as the run's
 * context, for every view) and the checkpoint it was forked at, so that the new run stands on
 * its own: a resume before its first stage ends goes on from there, and it can be forked there.
 */
export function forkStartEvents(fork: ForkPoint): Array<[type: string, data: Record<string, unknown>]> {
  const context = fork.start.context;
  return [...(Object.keys(context).length === 0 ? [] : [["context.updated", { updates: { ...context } }] as [string, Record<string, unknown>]]), ["checkpoint.saved", fork.checkpoint]];
}

/**
 * The head of the run's branch when the checkpoint was saved: its own commit, else the last
 * commit recorded on the run's branch before it (a stage's, a salvage, a fan-in's merge).
 * Commits of a fan-out's branches are on branches of their own and do not count.
 */
function headAt(events: readonly Envelope[], checkpoint: CheckpointState): string | undefined {
  if (checkpoint.commit !== undefined) return checkpoint.commit;
  let head: string | undefined;
  for (const event of events) {
    if ((event.seq ?? 0) >= checkpoint.seq) break;
    if (event.stage?.branch !== undefined) continue;
    const sha = event.type === "git.committed" || event.type === "integration.completed" ? event.data["sha"] : undefined;
    if (typeof sha === "string" && sha !== "") head = sha;
  }
  return head;
}

/** How the checkpoint's visit ended: what a conditional right after it routes on. */
function outcomeOf(state: RunState, checkpoint: CheckpointState): StageOutcome {
  const visit = state.workflow.stages.findLast((s) => s.stage === checkpoint.stage && s.visit === checkpoint.visit && s.branch === undefined && s.status !== "running");
  return visit === undefined || visit.status === "running" ? "succeeded" : visit.status;
}

function list(checkpoints: readonly CheckpointState[]): string {
  const names = checkpoints.map((c) => `${c.stage}@${c.visit}`);
  return names.length > 12 ? `${names.slice(0, 12).join(", ")}, …` : names.join(", ");
}
