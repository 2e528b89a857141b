import { sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.ts";
import type { WorkflowDefinition } from "../definition/schema.ts";
import { checkContext, type CheckOptions } from "./context.ts";
import { checkStages } from "./stages.ts";
import { checkStructure } from "./structure.ts";

export type { CheckOptions } from "./context.ts";

/**
 * The checker's rules over a definition (those about its text, such as bad values and unknown
 * attributes, come from `readWorkflow`): structure, reachability, what each stage needs, retry
 * targets, gate defaults. Returns the diagnostics in file order; it never throws.
 *
 * @example checkWorkflow(definition, { file: "wf.dot", fileExists: existsSync, baseDir: cwd, homeDir: homedir() })
 */
export function checkWorkflow(definition: WorkflowDefinition, options: CheckOptions): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const ctx = checkContext(definition, options, diagnostics);
  checkStructure(ctx);
  checkStages(ctx);
  return sortDiagnostics(diagnostics);
}
