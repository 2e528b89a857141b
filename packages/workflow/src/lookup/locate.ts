import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SINGLE_WORKFLOW } from "../definition/single.ts";
import { PIPELINE_WORKFLOW } from "../pipeline/pipeline-workflow.ts";
import { WorkflowError } from "../errors.ts";

/** Where a project keeps its workflows, relative to the repository root. */
export const WORKFLOWS_DIR = join(".baton", "workflows");
export const WORKFLOW_EXTENSIONS = [".dot", ".fabro"] as const;
export const BUILTIN_WORKFLOWS: readonly string[] = [SINGLE_WORKFLOW, PIPELINE_WORKFLOW];

export type WorkflowLocation = { kind: "builtin"; name: string } | { kind: "file"; path: string };

const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/** A reference that is a path (it has a slash or a workflow extension) rather than a name. */
export function isWorkflowPath(ref: string): boolean {
  return ref.includes("/") || ref.includes("\\") || WORKFLOW_EXTENSIONS.some((ext) => ref.endsWith(ext));
}

/**
 * Finds a workflow: a path (relative to `cwd`) as given; `single` built in; any other name as
 * `.baton/workflows/NAME.dot` or `NAME.fabro` under the project root, then the built-in
 * `pipeline` (a project's own `pipeline.dot` comes first). Not found is a WorkflowError naming
 * every place it looked.
 *
 * @example await locateWorkflow("review", { cwd, projectRoot }) // { kind: "file", path: "<root>/.baton/workflows/review.dot" }
 */
export async function locateWorkflow(ref: string, where: { cwd: string; projectRoot: string }): Promise<WorkflowLocation> {
  if (isWorkflowPath(ref)) {
    const path = resolve(where.cwd, ref);
    if (await isFile(path)) return { kind: "file", path };
    throw new WorkflowError("workflow_not_found", `no workflow file ${ref} (looked at ${path})`, { hint: "check the path, or name a workflow of .baton/workflows/ without its extension" });
  }
  if (ref === SINGLE_WORKFLOW) return { kind: "builtin", name: ref };
  if (!NAME.test(ref)) {
    throw new WorkflowError("workflow_not_found", `"${ref}" is neither a workflow name nor a path`, { hint: "name a workflow of .baton/workflows/ (letters, digits, _ . -) or give a path to a .dot or .fabro file" });
  }
  const candidates = WORKFLOW_EXTENSIONS.map((ext) => join(where.projectRoot, WORKFLOWS_DIR, `${ref}${ext}`));
  const found: string[] = [];
  for (const path of candidates) if (await isFile(path)) found.push(path);
  if (found.length === 1) return { kind: "file", path: found[0] as string };
  if (found.length > 1) {
    throw new WorkflowError("workflow_not_found", `workflow "${ref}" is both ${found.join(" and ")}`, { hint: "keep one of them, or pass the path of the one you mean" });
  }
  // A project's own .baton/workflows/pipeline.dot comes before the built-in pipeline.
  if (BUILTIN_WORKFLOWS.includes(ref)) return { kind: "builtin", name: ref };
  const looked = WORKFLOW_EXTENSIONS.map((ext) => join(WORKFLOWS_DIR, `${ref}${ext}`)).join(" and ");
  throw new WorkflowError("workflow_not_found", `no workflow named "${ref}": looked for ${looked} in ${where.projectRoot}, and among the built-in workflows (${BUILTIN_WORKFLOWS.join(", ")})`, {
    hint: `create ${join(WORKFLOWS_DIR, `${ref}.dot`)}, or pass the path of a .dot or .fabro file`,
  });
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}
