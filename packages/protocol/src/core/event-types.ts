/** The events that end a run's active life. Every `run.started` is followed by exactly one. */
export const TERMINAL_TYPES = ["run.paused", "run.completed", "run.failed", "run.cancelled"] as const;
/** Terminal events after which nothing more is ever appended to the run. */
export const FINAL_TYPES = ["run.completed", "run.failed", "run.cancelled"] as const;
/**
 * Types that are never logged and carry no seq. The catalog marks them too; a test keeps the
 * two in step.
 */
export const EPHEMERAL_TYPES = ["agent.delta"] as const;

export function isTerminalType(type: string): boolean {
  return (TERMINAL_TYPES as readonly string[]).includes(type);
}

export function isFinalType(type: string): boolean {
  return (FINAL_TYPES as readonly string[]).includes(type);
}

export function isEphemeralType(type: string): boolean {
  return (EPHEMERAL_TYPES as readonly string[]).includes(type);
}

/** Every type of protocol v1, in catalog order; the catalog defines them, and a test keeps the two in step. */
export const EVENT_TYPES = [
  "run.created",
  "run.started",
  "run.paused",
  "run.completed",
  "run.failed",
  "run.cancelled",
  "log",
  "worker.lost",
  "workspace.ready",
  "file.changed",
  "git.committed",
  "agent.started",
  "turn.started",
  "agent.delta",
  "agent.message",
  "agent.thought",
  "tool.started",
  "tool.completed",
  "plan.updated",
  "permission.requested",
  "permission.resolved",
  "usage.updated",
  "turn.completed",
  "agent.finished",
  "runner.event",
  "agent.compacted",
  "budget.updated",
  "limit.warning",
  "limit.reached",
  "provider.error",
  "retry.scheduled",
  "model.switched",
  "stall.detected",
  "repeat.detected",
  "handback.requested",
  "input.queued",
  "input.delivered",
  "input.rejected",
  "question.asked",
  "question.answered",
  "model.request.completed",
  "model.request.refused",
  "workflow.loaded",
  "stage.started",
  "stage.completed",
  "stage.failed",
  "stage.retrying",
  "route.selected",
  "context.updated",
  "checkpoint.saved",
  "parallel.started",
  "branch.started",
  "branch.completed",
  "parallel.completed",
  "integration.completed",
  "integration.conflicted",
  "approval.requested",
  "approval.resolved",
  "wait.started",
  "setup.started",
  "setup.command.completed",
  "setup.completed",
  "setup.failed",
  "validation.completed",
  "validation.fix_requested",
  "git.merged",
  "merge.conflicted",
  "git.pushed",
  "pull_request.created",
  "pull_request.failed",
  "artifact.captured",
  "artefact.written",
  "subtask.updated",
  "subtask.integrated",
] as const;

export function isKnownType(type: string): boolean {
  return (EVENT_TYPES as readonly string[]).includes(type);
}

/** Every status a run can have, as its events say, in the order a run goes through them. */
export const RUN_STATUSES = ["created", "running", "paused", "succeeded", "stopped", "failed", "cancelled"] as const;

/** A run's status, as its events say. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses of a run that has ended for good: its log has its final event. */
export const FINAL_STATUSES = ["succeeded", "stopped", "failed", "cancelled"] as const satisfies readonly RunStatus[];

export function isFinalStatus(status: string | undefined): boolean {
  return status !== undefined && (FINAL_STATUSES as readonly string[]).includes(status);
}
