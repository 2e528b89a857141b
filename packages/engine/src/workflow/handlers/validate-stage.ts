import type { RunDelivery } from "../../delivery/run-delivery.ts";
import type { Redactor } from "../../redaction/redactor.ts";
import type { TraceStore } from "../../trace/trace-store.ts";
import { runValidation } from "../../validation/run-validation.ts";
import type { StageResult } from "../stage-result.ts";
import type { StageRun } from "../walk-workflow.ts";

export type ValidateStageDeps = { cwd: string; delivery: RunDelivery | undefined; trace: TraceStore; redactor: Redactor };

/**
 * A validate stage (`type=validate`): the project's validation commands (`[validation]
 * commands`, `--validate`) and the stage's own `script`, each run in the workspace and
 * recorded as `validation.completed`. It succeeds when every one passes; a failure is routed
 * like a command stage's (to a fix stage, whose prompt reads `{{ context.validation.output }}`),
 * the loop bounded by `max_visits`.
 */
export function validateStage(deps: ValidateStageDeps) {
  return async (stage: StageRun): Promise<StageResult> => {
    const own = stage.node.script?.trim();
    const commands = [...(deps.delivery?.validation.commands ?? []), ...(own === undefined || own === "" ? [] : [own])];
    if (commands.length === 0) {
      return { outcome: "failed", class: "structural", error: { code: "no_validation_commands", message: `validate stage "${stage.node.id}" has no command: set [validation] commands, pass --validate, or give the stage a script` } };
    }
    const verdict = await runValidation(
      stage.sink,
      { commands, timeoutMs: stage.node.timeout_ms ?? deps.delivery?.validation.timeoutMs ?? 600_000, maxFixRounds: 0, env: deps.delivery?.commandEnv ?? {}, trace: deps.trace, redactor: deps.redactor },
      { cwd: deps.cwd, round: stage.scope.visit - 1, signal: stage.signal },
    );
    if (stage.signal.aborted) return { outcome: "failed", class: "cancelled", error: { code: "cancelled", message: "validation was cancelled" }, halt: { kind: "cancelled" } };
    const output = verdict.failures.map((failure) => `$ ${failure.command}\n${failure.tail}`).join("\n\n");
    const context_updates = { "validation.passed": verdict.passed, "validation.commands": [...commands], "validation.failed": verdict.failures.map((failure) => failure.command), "validation.output": output };
    if (verdict.passed) return { outcome: "succeeded", summary: `${commands.length} validation command${commands.length === 1 ? "" : "s"} passed`, signals: { context_updates } };
    const names = verdict.failures.map((failure) => `\`${failure.command}\``).join(", ");
    return { outcome: "failed", class: "deterministic", error: { code: "validation_failed", message: `validation failed: ${names}` }, signals: { context_updates } };
  };
}
