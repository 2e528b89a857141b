/** A place in a workflow file: 1-based line and column, 0-based character offset. */
export type SourcePos = { line: number; column: number; offset: number };

export type Severity = "error" | "warning";

/**
 * One finding about a workflow: where, how bad, which rule, what is wrong and what to do.
 * Parse refusals and checker rules both speak this shape, so `baton workflow check` prints
 * and counts them the same way.
 */
export type Diagnostic = {
  file: string;
  line: number;
  column: number;
  severity: Severity;
  /** A stable kebab-case name (`missing-prompt`, `html-label`, …), documented in docs/workflows.md. */
  rule: string;
  message: string;
  fix: string;
};

/** Where a diagnostic points when nothing better is known: the top of the file. */
export const FILE_START: SourcePos = { line: 1, column: 1, offset: 0 };

export function diagnostic(file: string, pos: SourcePos | undefined, severity: Severity, rule: string, message: string, fix: string): Diagnostic {
  const at = pos ?? FILE_START;
  return { file, line: at.line, column: at.column, severity, rule, message, fix };
}

/**
 * The one line a person reads: `file:line:col: error rule-name: message (fix: …)`.
 *
 * @example formatDiagnostic(d) // "wf.dot:3:5: error missing-prompt: stage \"plan\" has no prompt (fix: add prompt=\"…\")"
 */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.rule}: ${oneLine(d.message)} (fix: ${oneLine(d.fix)})`;
}

/** A quoted piece of a multi-line value must not break the one-line form. */
function oneLine(text: string): string {
  return text.replaceAll(/\r?\n/g, "\\n");
}

/** File order (line, then column), errors before warnings at the same place. */
export function sortDiagnostics(list: readonly Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => a.line - b.line || a.column - b.column || (a.severity === b.severity ? 0 : a.severity === "error" ? -1 : 1));
}

export function hasErrors(list: readonly Diagnostic[]): boolean {
  return list.some((d) => d.severity === "error");
}
