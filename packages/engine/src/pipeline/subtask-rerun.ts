import { commitStage } from "../workflow/commit-stage.ts";
import type { StageRunner } from "../workflow/walk-workflow.ts";
import { git } from "../workspace/git-cli.ts";
import type { Workspace } from "../workspace/open-workspace.ts";
import { subtaskOf } from "./subtask-events.ts";

/**
 * An agent stage with `rebuilds="KEY"` (the pipeline's `rebuild`, `KEY` = `subtasks.conflicted`)
 * builds again, on the integrated branch, the subtasks that conflicted at the fan-in. Once it
 * ended, its work is committed and each of those subtasks is reported: `subtask.integrated`
 * with `rerun`, the commit when the stage succeeded, else no commit and its conflicts as they were.
 */
export function withSubtaskRerun(runner: StageRunner, deps: { workspace: Workspace; run: { runId: string; number: number; task: string } }): StageRunner {
  return async (stage) => {
    const key = stage.node.rebuilds;
    const listed = key === undefined ? undefined : stage.context[key];
    const subtasks = Array.isArray(listed) ? listed.filter((item) => subtaskOf(item) !== undefined) : [];
    if (subtasks.length === 0) return runner(stage);
    const result = await runner(stage);
    const succeeded = result.outcome === "succeeded";
    const sha = succeeded ? await commitStage(stage.sink, deps.workspace, deps.run, stage) : undefined;
    const head = succeeded ? (sha ?? (await git(deps.workspace.path, ["rev-parse", "HEAD"]))) : null;
    for (const item of subtasks) {
      const conflicts = (item as { conflicts?: unknown }).conflicts;
      stage.sink.append("subtask.integrated", { ...subtaskOf(item), commit: head, conflicts: succeeded || !Array.isArray(conflicts) ? [] : conflicts.map(String), rerun: true });
    }
    return sha === undefined ? result : { ...result, commit: sha };
  };
}
