import { diagnostic, type Diagnostic, type Severity, type SourcePos } from "../diagnostics/diagnostic.ts";
import type { WorkflowDefinition, WorkflowEdge, WorkflowNode } from "../definition/schema.ts";

/** What the checker may ask of the world: whether a file exists, and where relative paths start. */
export type CheckOptions = {
  /** The name diagnostics give the file (as the user wrote it, or relative to the cwd). */
  file: string;
  fileExists: (path: string) => boolean;
  /** Where `@file` prompts of a workflow read from no file resolve. */
  baseDir: string;
  homeDir: string;
};

/** One check in progress: the definition, the options, and a way to report at an element. */
export type CheckContext = {
  definition: WorkflowDefinition;
  options: CheckOptions;
  report: (severity: Severity, rule: string, at: SourcePos | undefined, message: string, fix: string) => void;
  nodeAt: (node: WorkflowNode, attribute?: string) => SourcePos | undefined;
  edgeAt: (edge: WorkflowEdge, attribute?: string) => SourcePos | undefined;
  graphAt: (attribute: string) => SourcePos | undefined;
};

type Located = { source?: { line: number; column: number; attributes: Record<string, { line: number; column: number }> } | undefined };

export function checkContext(definition: WorkflowDefinition, options: CheckOptions, sink: Diagnostic[]): CheckContext {
  // An attribute's place when it has one, else the element's: a definition built in TypeScript has neither.
  const at = (element: Located, attribute?: string): SourcePos | undefined => {
    const place = (attribute === undefined ? undefined : element.source?.attributes[attribute]) ?? element.source;
    return place === undefined ? undefined : { line: place.line, column: place.column, offset: 0 };
  };
  return {
    definition,
    options,
    report: (severity, rule, pos, message, fix) => sink.push(diagnostic(options.file, pos, severity, rule, message, fix)),
    nodeAt: at,
    edgeAt: at,
    graphAt: (attribute) => at(definition.graph, attribute),
  };
}
