import { z } from "zod";
import { defineEvent, errorInfoSchema, usageSchema } from "./shared.ts";

// A workflow run walks a graph of stages. Every event emitted while a stage runs (the stage's
// own, and the agent's, tool's and git's events inside it) names the stage in the envelope's
// `stage` field ({id, visit, branch?}), in one place for every type, so any view can group a
// run by stage. The data of the stage events below repeats `stage` and `visit` only where a
// reader needs them without the envelope (the checkpoint that resumes a run).

const stageId = z.string().min(1);
const visit = z.number().int().min(1);

/** How a stage visit ended, for routing: the values a workflow's `outcome=` conditions test. */
export const stageOutcomeSchema = z.enum(["succeeded", "partially_succeeded", "skipped", "failed"]);

/** What a stage's handler does: the node's shape (or `type=`) in the workflow's DOT file. */
export const stageHandlerSchema = z.enum(["start", "exit", "agent", "prompt", "command", "conditional", "human", "parallel", "fan_in", "wait", "foreach", "validate", "merge", "pull_request", "subtasks"]);

/**
 * Why a failure happened, which decides what is done about it: a provider outage or a lost
 * worker (`transient_infra`) is retried, a deterministic failure is routed, a spent budget or
 * a cancel ends the run, a broken graph (`structural`) fails it.
 */
export const failureClassSchema = z.enum(["transient_infra", "deterministic", "budget_exhausted", "cancelled", "structural"]);

/** What a command stage ran into: its exit code and its output, whole in the trace store. */
const commandResultFields = {
  exit_code: z.number().int().optional(),
  timed_out: z.boolean().optional(),
  /** The complete output's file in the trace store, relative to the run's folder. */
  output_file: z.string().optional(),
  output_chars: z.number().int().min(0).optional(),
  /** The output's last characters, redacted. */
  preview: z.string().optional(),
};

/** Routing signals a stage may leave besides its outcome. */
const signalsSchema = z.looseObject({
  preferred_label: z.string().optional(),
  suggested_next_ids: z.array(z.string()).optional(),
  context_updates: z.record(z.string(), z.unknown()).optional(),
});

export const workflowLoaded = defineEvent(
  "workflow.loaded",
  "The run's workflow, as Baton read it: where it came from (a name, a file and its sha256), its stages and its edges, so that a view can draw the graph from the log alone.",
  z.looseObject({
    name: z.string().min(1),
    /** The file it was read from, relative to the repository root; absent for a built-in workflow. */
    file: z.string().optional(),
    sha256: z.string().optional(),
    goal: z.string().optional(),
    nodes: z.array(z.looseObject({ id: stageId, label: z.string().optional(), handler: stageHandlerSchema })),
    edges: z.array(z.looseObject({ from: stageId, to: stageId, label: z.string().optional(), condition: z.string().optional() })),
  }),
);

export const stageStarted = defineEvent(
  "stage.started",
  "A stage visit started (or a retry of it: `attempt` > 1). Closed by exactly one `stage.completed` or `stage.failed`, on every path, parallel branches included.",
  z.looseObject({
    stage: stageId,
    label: z.string().optional(),
    handler: stageHandlerSchema,
    visit,
    attempt: z.number().int().min(1),
    max_attempts: z.number().int().min(1),
    /** The agent and model an agent or prompt stage runs, after the model stylesheet. */
    agent: z.string().optional(),
    model: z.string().optional(),
  }),
);

export const stageCompleted = defineEvent(
  "stage.completed",
  "A stage visit ended with an outcome other than failed; `signals` are what it left for routing.",
  z.looseObject({
    stage: stageId,
    visit,
    outcome: stageOutcomeSchema.exclude(["failed"]),
    duration_ms: z.number().int().min(0),
    usage: usageSchema.optional(),
    signals: signalsSchema.optional(),
    /** A short account of what the stage did (the command's exit code, the gate's choice). */
    summary: z.string().optional(),
    ...commandResultFields,
  }),
);

export const stageFailed = defineEvent(
  "stage.failed",
  "A stage visit ended failed. `will_retry`: a `stage.retrying` and a new attempt follow; otherwise the workflow routes on `outcome=failed` (or the run fails when no edge takes it).",
  z.looseObject({
    stage: stageId,
    visit,
    error: errorInfoSchema,
    class: failureClassSchema,
    will_retry: z.boolean(),
    duration_ms: z.number().int().min(0),
    usage: usageSchema.optional(),
    signals: signalsSchema.optional(),
    ...commandResultFields,
  }),
);

export const stageRetrying = defineEvent(
  "stage.retrying",
  "A failed stage is tried again after `delay_ms`, as attempt `attempt` of `max_attempts`.",
  z.looseObject({ stage: stageId, visit, attempt: z.number().int().min(2), max_attempts: z.number().int().min(2), delay_ms: z.number().int().min(0) }),
);

export const routeSelected = defineEvent(
  "route.selected",
  "The edge taken after a stage, and why: a matching `condition`, the `preferred_label`, a `suggested_next` id, an `unconditional` edge, a `retry_target` after a failure, or `join`: from a fan-out (or `foreach`) whose branches have ended, to their fan-in.",
  z.looseObject({
    from: stageId,
    to: stageId,
    label: z.string().optional(),
    condition: z.string().optional(),
    reason: z.enum(["condition", "preferred_label", "suggested_next", "unconditional", "retry_target", "gate", "join"]),
  }),
);

export const contextUpdated = defineEvent(
  "context.updated",
  "The run's context (a flat map of JSON values that prompts and commands read) changed: `updates` holds the new values; a key set to null is removed.",
  z.looseObject({ updates: z.record(z.string(), z.unknown()) }),
);

export const checkpointSaved = defineEvent(
  "checkpoint.saved",
  "A stage visit is done and recorded: its commit on the run's branch, the context after it, and the stage that runs next (absent at the exit). `baton resume` continues from the last one; `baton fork` starts a new run from any.",
  z.looseObject({
    stage: stageId,
    visit,
    commit: z.string().optional(),
    context: z.record(z.string(), z.unknown()),
    next: stageId.optional(),
    /** Visits so far by stage, counting this one. */
    visits: z.record(z.string(), z.number().int().min(0)),
  }),
);

const branchId = z.string().min(1);

export const parallelStarted = defineEvent(
  "parallel.started",
  "A fan-out (or `foreach`) started its branches, each in a worktree of its own branched from the run's branch at this stage's checkpoint.",
  z.looseObject({
    stage: stageId,
    branches: z.array(z.looseObject({ branch: branchId, target: stageId, item: z.unknown().optional() })),
    join_policy: z.enum(["wait_all", "first_success"]),
    max_parallel: z.number().int().min(1),
    base_sha: z.string().optional(),
    /** The fan-in stage the branches end at, where they are merged. */
    fan_in: stageId.optional(),
    /** Branches that ended in an earlier attempt of this visit (before a crash): not run again. */
    reused: z.array(branchId).optional(),
  }),
);

export const branchStarted = defineEvent(
  "branch.started",
  "One branch of a fan-out started in its worktree.",
  z.looseObject({ stage: stageId, branch: branchId, target: stageId, path: z.string().optional(), git_branch: z.string().optional() }),
);

export const branchCompleted = defineEvent(
  "branch.completed",
  "One branch of a fan-out ended: its outcome and the head of its git branch (absent when it committed nothing).",
  z.looseObject({ stage: stageId, branch: branchId, outcome: stageOutcomeSchema.or(z.literal("cancelled")), head_sha: z.string().optional(), error: errorInfoSchema.optional() }),
);

export const parallelCompleted = defineEvent(
  "parallel.completed",
  "Every branch of a fan-out has ended (or, with `first_success`, one succeeded and the rest were cancelled). `results` are in branch order.",
  z.looseObject({
    stage: stageId,
    outcome: stageOutcomeSchema,
    results: z.array(z.looseObject({ branch: branchId, outcome: z.string(), head_sha: z.string().optional() })),
  }),
);

export const integrationCompleted = defineEvent(
  "integration.completed",
  "A fan-in merged one branch into the run's branch (`git merge --no-ff`), in branch order.",
  z.looseObject({
    stage: stageId,
    branch: branchId,
    /** The merge commit; with `empty`, the run's head (nothing was merged). */
    sha: z.string().min(1),
    git_branch: z.string().optional(),
    /** The branch had no commit of its own, or its commits were in the run's branch already. */
    empty: z.boolean().optional(),
  }),
);

export const integrationConflicted = defineEvent(
  "integration.conflicted",
  "A fan-in could not merge a branch: the merge was aborted, the run's branch is as it was, and `files` are the paths in conflict.",
  z.looseObject({ stage: stageId, branch: branchId, files: z.array(z.string()), git_branch: z.string().optional() }),
);

const gateOption = z.looseObject({ label: z.string(), to: stageId, key: z.string().optional() });

export const approvalRequested = defineEvent(
  "approval.requested",
  "A human gate waits for a decision: one of `options` (the out-edges' labels), or free text when `freeform`. The run pauses until it is answered.",
  z.looseObject({
    gate: stageId,
    question: z.string(),
    options: z.array(gateOption),
    freeform: z.boolean(),
    default_choice: z.string().optional(),
    timeout_ms: z.number().int().min(0).optional(),
  }),
);

export const approvalResolved = defineEvent(
  "approval.resolved",
  "A human gate was answered: the option chosen (`choice`, its label), or `text` for a freeform answer; who answered and how (`cli`, `api`, `web`, `auto` for --auto-approve, `timeout` for a gate's default choice).",
  z.looseObject({
    gate: stageId,
    choice: z.string().optional(),
    text: z.string().optional(),
    approved: z.boolean(),
    comment: z.string().optional(),
    by: z.string(),
    via: z.enum(["cli", "api", "web", "terminal", "auto", "timeout"]),
  }),
);

export const waitStarted = defineEvent(
  "wait.started",
  "A wait stage holds the run until `until` (an RFC 3339 time), across restarts.",
  z.looseObject({ stage: stageId, until: z.string(), duration_ms: z.number().int().min(0) }),
);
