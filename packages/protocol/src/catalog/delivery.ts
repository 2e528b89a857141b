import { z } from "zod";
import { errorInfoSchema } from "./shared.ts";
import { defineEvent } from "./shared.ts";

/** The path of a file in the run's trace store (`outputs/…`), relative to the run's folder. */
const outputFile = z.string().min(1);

export const setupStarted = defineEvent(
  "setup.started",
  "The workspace's setup commands (`[setup]`) start, in a fresh workspace before its first agent stage: the run's worktree, or a fan-out branch's (`branch`).",
  z.looseObject({
    /** Where the commands run. */
    path: z.string(),
    commands: z.array(z.string()),
    branch: z.string().optional(),
  }),
);

export const setupCommandCompleted = defineEvent(
  "setup.command.completed",
  "One setup command ended: its exit code (null when a signal or its timeout ended it) and its whole output in the trace store.",
  z.looseObject({
    command: z.string(),
    /** The step's `name` (`[[setup.steps]]`), when it has one. */
    name: z.string().optional(),
    exit_code: z.number().int().nullable(),
    duration_ms: z.number().int().min(0),
    timed_out: z.boolean().optional(),
    output_file: outputFile.optional(),
  }),
);

export const setupCompleted = defineEvent(
  "setup.completed",
  "Every setup command of the workspace succeeded.",
  z.looseObject({ commands: z.number().int().min(0), duration_ms: z.number().int().min(0), branch: z.string().optional() }),
);

export const setupFailed = defineEvent(
  "setup.failed",
  "A setup command failed (or timed out): no agent starts in that workspace, and the run (or the branch) fails naming the command and the tail of its output.",
  z.looseObject({
    command: z.string(),
    exit_code: z.number().int().nullable(),
    error: errorInfoSchema,
    /** The last lines of the command's output, redacted. */
    output_tail: z.string(),
    branch: z.string().optional(),
  }),
);

export const validationCompleted = defineEvent(
  "validation.completed",
  "A validation command (`[validation] commands`, `--validate`) ran in the run's workspace after the agent's work: whether it passed, and its whole output in the trace store.",
  z.looseObject({
    command: z.string(),
    passed: z.boolean(),
    exit_code: z.number().int().nullable(),
    duration_ms: z.number().int().min(0),
    /** 0 for the check of the agent's task, then 1, 2, … after each fix round. */
    round: z.number().int().min(0),
    timed_out: z.boolean().optional(),
    output_file: outputFile.optional(),
  }),
);

export const validationFixRequested = defineEvent(
  "validation.fix_requested",
  "Validation failed and the agent is sent a fix prompt naming the failing commands and the tail of their output (a turn of its own follows).",
  z.looseObject({
    round: z.number().int().min(1),
    max_rounds: z.number().int().min(1),
    commands: z.array(z.string()),
  }),
);

export const mergeStrategySchema = z.enum(["merge", "squash", "ff-only"]);

export const gitMerged = defineEvent(
  "git.merged",
  "Baton merged the run's branch into its base branch (`--merge`, `[delivery] mode = \"merge\"`, a `merge` stage, `baton merge`). The user's working tree, when it has the base checked out, shows the merged state.",
  z.looseObject({
    /** The base branch's new head. */
    sha: z.string().min(1),
    branch: z.string(),
    base: z.string(),
    strategy: mergeStrategySchema,
    /** The run delivered, when it is another run (`baton merge`). */
    run: z.string().optional(),
    number: z.number().int().optional(),
  }),
);

export const mergeConflicted = defineEvent(
  "merge.conflicted",
  "The run's branch does not merge into its base without conflicts (or cannot be fast-forwarded): nothing was changed, and the files in conflict are named.",
  z.looseObject({
    branch: z.string(),
    base: z.string(),
    strategy: mergeStrategySchema,
    files: z.array(z.string()),
  }),
);

export const artifactCaptured = defineEvent(
  "artifact.captured",
  "A file matching `[artifacts] include` was captured into the run's folder by content (`artifacts/<sha256>`) at the end of a stage or of the run.",
  z.looseObject({
    /** Relative to the workspace. */
    path: z.string().min(1),
    bytes: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    media_type: z.string().min(1),
    stage: z.string().optional(),
  }),
);

/** Who a delivery is for, when it is another run (`baton pr`): that run's id and number. */
const deliveredRun = { run: z.string().optional(), run_number: z.number().int().optional() };

export const gitPushed = defineEvent(
  "git.pushed",
  "Baton pushed the run's branch to a remote (`[delivery] remote`, default `origin`) for a pull request: the agent never pushes.",
  z.looseObject({
    remote: z.string(),
    branch: z.string(),
    base: z.string().optional(),
    /** The branch's head that was pushed. */
    sha: z.string().min(1),
    ...deliveredRun,
  }),
);

export const pullRequestCreated = defineEvent(
  "pull_request.created",
  "Baton opened a pull request for the run's branch on GitHub through its REST API (`--pr`, `[delivery] mode = \"pull_request\"`, a `pull_request` stage, `baton pr`).",
  z.looseObject({
    url: z.string().min(1),
    /** The pull request's number on GitHub. */
    number: z.number().int().min(1),
    head_sha: z.string(),
    draft: z.boolean(),
    /** `owner/name`. */
    repo: z.string(),
    branch: z.string(),
    base: z.string(),
    remote: z.string(),
    ...deliveredRun,
  }),
);

export const pullRequestFailed = defineEvent(
  "pull_request.failed",
  "A pull request could not be opened: no token, the push was refused, or GitHub's API answered an error (403, 422, a rate limit). The run's work stays on its branch; the error says what to do.",
  z.looseObject({
    error: errorInfoSchema,
    branch: z.string(),
    base: z.string(),
    remote: z.string(),
    ...deliveredRun,
  }),
);

export const artefactWritten = defineEvent(
  "artefact.written",
  "A stage wrote the artefact it is for (`artefact=\"kind:path\"`): the `pipeline`'s spec, plan and subtask list. The file is in the run's workspace and committed at the stage's checkpoint.",
  z.looseObject({
    /** What it is: `spec`, `plan`, `subtasks`, or a workflow's own word. */
    kind: z.string().min(1),
    /** Relative to the workspace. */
    path: z.string().min(1),
    bytes: z.number().int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
);

export const subtaskStatusSchema = z.enum(["planned", "building", "built", "failed", "cancelled"]);

export const subtaskUpdated = defineEvent(
  "subtask.updated",
  "A subtask of the plan changed status: `planned` when the list is read, `building` when its branch starts, then `built`, `failed` or `cancelled` when the branch ends.",
  z.looseObject({
    id: z.string().min(1),
    title: z.string().optional(),
    status: subtaskStatusSchema,
    /** The fan-out branch building it (`item-0`, …). */
    branch: z.string().optional(),
  }),
);

export const subtaskIntegrated = defineEvent(
  "subtask.integrated",
  "A built subtask's branch was merged into the task branch (`commit`), or conflicted (`commit` null, `conflicts` the files; nothing merged). A conflicting subtask is built again on the integrated branch once (`rerun`).",
  z.looseObject({
    id: z.string().min(1),
    title: z.string().optional(),
    branch: z.string().optional(),
    commit: z.string().nullable(),
    conflicts: z.array(z.string()),
    rerun: z.boolean().optional(),
  }),
);
