import { z } from "zod";

/**
 * What a dispatched run's job carries: everything a worker on another machine needs, since
 * workers share no file system with the submitter. The run itself (its number, its catalog
 * row) is already in the store; the job names it.
 */
export const runJobSchema = z.object({
  run: z.string(),
  number: z.number().int().min(1),
  task: z.string(),
  agent: z.string(),
  /** The repository's remote: the worker clones or fetches it, and pushes the run's branch to it. */
  remote: z.string(),
  /** The commit the run's branch starts from (it is on the remote). */
  base: z.string(),
  /** The branch the base was taken from, for people. */
  base_branch: z.string().optional(),
  /** The fake agent's script, as JSON (the file stays on the submitter's machine). */
  script: z.unknown().optional(),
  /**
   * A workflow run's workflow, as the submitter read and checked it (workers share no file
   * system, and the submitter's file may differ from the base commit's, or not be committed).
   */
  workflow: z
    .object({
      /** As given to `--workflow`, for people. */
      ref: z.string(),
      /** The workflow's name (its digraph's, or the built-in's). */
      name: z.string(),
      /** A built-in workflow (`single`, `pipeline`), made on the worker from the checkout's config. */
      builtin: z.string().optional(),
      /** The workflow file's text. */
      source: z.string().optional(),
      /** The file's path relative to the repository root, when it is in it: the worker puts the text there in its checkout, so `@file` prompts resolve as they did. */
      path: z.string().optional(),
      /** The file's base name, for one outside the repository. */
      file_name: z.string().optional(),
    })
    .optional(),
  /** Only workers with this label claim the run. */
  label: z.string().optional(),
  /** The run's options, as `baton run` takes them (model, timeout, limits). */
  options: z.record(z.string(), z.unknown()).default({}),
});

export type RunJob = z.infer<typeof runJobSchema>;

/** The dispatch queue of runs; a label's runs have a queue of their own. */
export const RUN_QUEUE = "baton-runs";

/** The queue a run with `label` (or none) waits in. */
export function queueFor(label: string | undefined): string {
  return label === undefined ? RUN_QUEUE : `${RUN_QUEUE}.${label}`;
}

/** Labels are words: they become queue names. */
export const LABEL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
