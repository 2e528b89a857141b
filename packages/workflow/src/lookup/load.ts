import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { isAbsolute, relative } from "node:path";
import { checkWorkflow } from "../check/check.ts";
import { hasErrors, sortDiagnostics, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { readWorkflow } from "../definition/from-dot.ts";
import type { WorkflowDefinition } from "../definition/schema.ts";
import { singleWorkflow } from "../definition/single.ts";
import { PIPELINE_WORKFLOW, pipelineWorkflow, type PipelineOptions } from "../pipeline/pipeline-workflow.ts";
import { invalidWorkflowError, WorkflowError } from "../errors.ts";
import { locateWorkflow, type WorkflowLocation } from "./locate.ts";

/** `pipeline`: how the built-in `pipeline` is made (its gates, parallelism and delivery). */
export type LoadOptions = { cwd: string; projectRoot: string; homeDir?: string; pipeline?: PipelineOptions };

export type LoadedWorkflow = {
  location: WorkflowLocation;
  /** How diagnostics name the file: relative to the cwd when it is below it. */
  display: string;
  /** Undefined when the file does not parse. */
  definition: WorkflowDefinition | undefined;
  /** Everything reading and checking found, errors and warnings, in file order. */
  diagnostics: Diagnostic[];
};

/**
 * Finds, reads and checks a workflow (see `locateWorkflow` for where it looks). Problems in
 * the file are diagnostics; only a workflow that cannot be found or read is a throw.
 */
export async function loadWorkflow(ref: string, options: LoadOptions): Promise<LoadedWorkflow> {
  const location = await locateWorkflow(ref, options);
  const checkOptions = (file: string) => ({ file, fileExists: existsSync, baseDir: options.cwd, homeDir: options.homeDir ?? homedir() });
  if (location.kind === "builtin") {
    const definition = location.name === PIPELINE_WORKFLOW ? pipelineWorkflow(options.pipeline) : singleWorkflow();
    return { location, display: location.name, definition, diagnostics: checkWorkflow(definition, checkOptions(location.name)) };
  }
  const display = displayPath(location.path, options.cwd);
  let text: string;
  try {
    text = await readFile(location.path, "utf8");
  } catch (error) {
    throw new WorkflowError("workflow_unreadable", `cannot read ${display}: ${(error as Error).message}`, { hint: "check the file's permissions" });
  }
  const read = readWorkflow(text, { file: display, path: location.path });
  if (read.definition === undefined) return { location, display, definition: undefined, diagnostics: read.diagnostics };
  const diagnostics = sortDiagnostics([...read.diagnostics, ...checkWorkflow(read.definition, checkOptions(display))]);
  return { location, display, definition: read.definition, diagnostics };
}

/**
 * `loadWorkflow` for code that runs the workflow: a file with an error is a `workflow_invalid`
 * WorkflowError (its first error, and how to see them all); warnings are returned.
 */
export async function loadValidWorkflow(ref: string, options: LoadOptions): Promise<{ definition: WorkflowDefinition; warnings: Diagnostic[]; display: string }> {
  const loaded = await loadWorkflow(ref, options);
  if (loaded.definition === undefined || hasErrors(loaded.diagnostics)) throw invalidWorkflowError(ref, loaded.diagnostics);
  return { definition: loaded.definition, warnings: loaded.diagnostics, display: loaded.display };
}

function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}
