import { z } from "zod";
import { defineEvent } from "./shared.ts";

export const workspaceReady = defineEvent(
  "workspace.ready",
  "The run's working directory is ready.",
  z.looseObject({
    path: z.string(),
    kind: z.enum(["worktree", "in_place"]),
    branch: z.string().optional(),
    base_branch: z.string().optional(),
    base_sha: z.string().optional(),
  }),
);

export const fileChanged = defineEvent(
  "file.changed",
  "A file in the workspace changed, as reported by the agent's tool calls.",
  z.looseObject({
    path: z.string(),
    change: z.enum(["added", "modified", "deleted"]),
  }),
);
