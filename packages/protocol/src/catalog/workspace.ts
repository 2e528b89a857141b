import { z } from "zod";
import { defineEvent } from "./shared.ts";

export const workspaceReady = defineEvent(
  "workspace.ready",
  "The run's working directory is ready: its own git worktree on its own branch (`worktree`), or the repository itself (`in_place`).",
  z.looseObject({
    path: z.string(),
    kind: z.enum(["worktree", "in_place"]),
    branch: z.string().optional(),
    /** What the branch was made from: the ref given with `--base`, else HEAD's branch name (or its sha when detached). */
    base: z.string().optional(),
    base_branch: z.string().optional(),
    base_sha: z.string().optional(),
    /** Uncommitted changes of the repository copied into the worktree (`--include-dirty`), as paths. */
    included_dirty: z.array(z.string()).optional(),
  }),
);

export const fileChanged = defineEvent(
  "file.changed",
  "A file in the workspace changed, as reported by the agent's tool calls (diffs, and the locations of edit, delete and move calls). Once per path per turn; the path is relative to the workspace.",
  z.looseObject({
    path: z.string(),
    change: z.enum(["added", "modified", "deleted"]),
  }),
);

const committedFile = z.looseObject({
  /** Relative to the repository root. */
  path: z.string(),
  change: z.enum(["added", "modified", "deleted", "renamed"]),
  /** For a rename: the path it had before. */
  from: z.string().optional(),
});

export const gitCommitted = defineEvent(
  "git.committed",
  "Baton committed the workspace's changes on the run's branch when the agent's work ended (whatever its outcome). No changes, no commit and no event.",
  z.looseObject({
    sha: z.string().min(1),
    branch: z.string(),
    /** The first line of the commit message. */
    message: z.string(),
    files: z.array(committedFile),
    stage: z.string().optional(),
  }),
);
