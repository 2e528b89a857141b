import { z } from "zod";

/**
 * `[pipeline]`: how the built-in `pipeline` workflow runs. `approvals` names the gates a person
 * answers (after `spec`, `plan`, `review`; `merge` before the work is delivered);
 * `max_parallel` is how many subtasks are built at once.
 */
export const pipelineConfigSchema = z
  .strictObject({
    approvals: z.array(z.enum(["spec", "plan", "review", "merge"])).default([]),
    max_parallel: z.number().int().min(1).max(16).default(4),
  })
  .prefault({});
export type PipelineConfig = z.infer<typeof pipelineConfigSchema>;
