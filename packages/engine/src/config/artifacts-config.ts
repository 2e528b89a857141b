import { z } from "zod";

/** Largest file captured: an artifact is a report or a picture, not a build's output tree. */
export const DEFAULT_MAX_ARTIFACT_BYTES = 50 * 1024 * 1024;

/**
 * `[artifacts]`: globs (relative to the workspace) whose files are captured into the run's
 * folder by content at the end of each stage, or of the run.
 */
export const artifactsConfigSchema = z
  .strictObject({
    include: z.array(z.string().trim().min(1, "a glob must not be empty")).default([]),
    max_bytes: z.number().int().positive().default(DEFAULT_MAX_ARTIFACT_BYTES),
  })
  .prefault({});
export type ArtifactsConfig = z.infer<typeof artifactsConfigSchema>;
