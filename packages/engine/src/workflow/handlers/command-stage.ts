import type { Redactor } from "../../redaction/redactor.ts";
import type { TraceStore } from "../../trace/trace-store.ts";
import { contextEnv, runCommand } from "../run-command.ts";
import { commandStageResult, type StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";

/** The tail of a command's output kept in the event and the context (`context.command.output`). */
export const COMMAND_PREVIEW_CHARS = 2_000;

export type CommandStageDeps = {
  cwd: string;
  /** The base environment commands get (the agent's kind: built, not inherited). */
  env: Record<string, string>;
  trace: TraceStore;
  redactor: Redactor;
};

/**
 * A command stage: the node's `script` in `sh -c` in the workspace, the context as
 * `BATON_CTX_*` variables, its exit code the outcome, its whole output in the trace store.
 */
export function commandStage(deps: CommandStageDeps) {
  return async (stage: StageRun): Promise<StageResult> => {
    const script = stage.node.script;
    if (script === undefined || script.trim() === "") {
      return { outcome: "failed", class: "structural", error: { code: "no_script", message: `command stage "${stage.node.id}" has no script` } };
    }
    const result = await runCommand({
      script,
      cwd: deps.cwd,
      env: { ...deps.env, ...contextEnv(stage.context), BATON_RUN_STAGE: stage.node.id },
      timeoutMs: stage.node.timeout_ms,
      signal: stage.signal,
    });
    // Branches of a foreach run the same stage: the branch keeps their outputs apart.
    const branch = stage.scope.branch === undefined ? "" : `-${stage.scope.branch}`;
    const traced = deps.trace.write(`stage-${stage.node.id}${branch}-${stage.scope.visit}-${stage.attempt}`, result.output);
    const redacted = deps.redactor.redactText(result.output);
    return commandStageResult(result, { file: traced?.file, preview: redacted.slice(-COMMAND_PREVIEW_CHARS) });
  };
}
