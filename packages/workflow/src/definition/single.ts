import { agent, chain, defineWorkflow, exit, start } from "./builder.ts";
import type { WorkflowDefinition } from "./schema.ts";

export const SINGLE_WORKFLOW = "single";

/**
 * The built-in `single` workflow, what `baton run TASK` runs with no `--workflow`: start, one
 * agent stage whose prompt is `{{ goal }}`, which the run sets to its task, then exit.
 */
export function singleWorkflow(): WorkflowDefinition {
  return defineWorkflow(SINGLE_WORKFLOW, {
    nodes: [start(), agent("task", "{{ goal }}", { label: "Task" }), exit()],
    edges: chain("start", "task", "exit"),
  });
}
