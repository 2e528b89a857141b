import { formatDiagnostic, type Diagnostic } from "./diagnostics/diagnostic.ts";

export type WorkflowErrorCode = "workflow_not_found" | "workflow_unreadable" | "workflow_invalid" | "bad_condition" | "bad_definition";

/**
 * An expected failure about a workflow, with a stable `code` and a `hint` saying what to do.
 * This package sits below the engine, so it cannot use the engine's BatonError; callers at a
 * boundary (the CLI, the engine) turn it into theirs, keeping code, message and hint.
 */
export class WorkflowError extends Error {
  readonly code: WorkflowErrorCode;
  readonly hint: string | undefined;
  /** The findings behind a `workflow_invalid` error (every error and warning of the file). */
  readonly diagnostics: readonly Diagnostic[];

  constructor(code: WorkflowErrorCode, message: string, options: { hint?: string; diagnostics?: readonly Diagnostic[] } = {}) {
    super(message);
    this.name = "WorkflowError";
    this.code = code;
    this.hint = options.hint;
    this.diagnostics = options.diagnostics ?? [];
  }

  /** The one line a user sees: the problem, then what to do. */
  toLine(): string {
    return this.hint ? `${this.message}: ${this.hint}` : this.message;
  }
}

export function isWorkflowError(error: unknown): error is WorkflowError {
  return error instanceof WorkflowError;
}

/**
 * The error for a file with errors: the first error in one line, and how to see them all.
 *
 * @example invalidWorkflowError("wf.dot", diagnostics).toLine()
 * // "wf.dot:3:5: error missing-prompt: … (fix: …): run `baton workflow check wf.dot` to see all 2 errors"
 */
export function invalidWorkflowError(ref: string, diagnostics: readonly Diagnostic[]): WorkflowError {
  const errors = diagnostics.filter((d) => d.severity === "error");
  const first = errors[0];
  const message = first === undefined ? `${ref} is not a valid workflow` : formatDiagnostic(first);
  const count = errors.length === 1 ? "the error" : `all ${errors.length} errors`;
  return new WorkflowError("workflow_invalid", message, { hint: `run \`baton workflow check ${ref}\` to see ${count}`, diagnostics });
}
