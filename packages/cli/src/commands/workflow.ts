import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { loadConfig } from "@baton/engine/config";
import { PIPELINE_WORKFLOW, type PipelineOptions } from "@baton/workflow";
import { pipelineOptions } from "./workflow-run.ts";
import { BatonError, isBatonError } from "@baton/engine/errors";
import { findRepoRoot } from "@baton/engine/git";
import {
  formatDiagnostic,
  hasErrors,
  isWorkflowError,
  loadValidWorkflow,
  loadWorkflow,
  resolveNodeStyle,
  workflowToDot,
  type LoadedWorkflow,
  type WorkflowDefinition,
} from "@baton/workflow";
import { EXIT, type CliContext } from "../context.ts";
import { writeLine } from "../output.ts";
import { renderWorkflow } from "../render/workflow-lines.ts";

/**
 * `baton workflow check`: every diagnostic of the file, one line each, then a summary. Exit 2
 * when there is an error, 0 otherwise (warnings alone pass).
 */
export async function workflowCheckCommand(ctx: CliContext, ref: string, options: { json?: boolean }): Promise<number> {
  const loaded = await load(ctx, ref, loadWorkflow);
  const errors = loaded.diagnostics.filter((d) => d.severity === "error").length;
  const warnings = loaded.diagnostics.length - errors;
  if (options.json) {
    await writeLine(ctx.stdout, JSON.stringify({ workflow: loaded.display, ok: errors === 0, errors, warnings, diagnostics: loaded.diagnostics }, null, 2));
  } else {
    for (const d of loaded.diagnostics) await writeLine(ctx.stdout, formatDiagnostic(d));
    await writeLine(ctx.stdout, summary(loaded, errors, warnings));
  }
  return hasErrors(loaded.diagnostics) ? EXIT.usage : EXIT.succeeded;
}

/** `baton workflow show`: the stages (handler, label, agent and model after the stylesheet) and the edges. */
export async function workflowShowCommand(ctx: CliContext, ref: string, options: { json?: boolean }): Promise<number> {
  const { definition, display } = await loadValid(ctx, ref);
  if (options.json) {
    const styles = Object.fromEntries(definition.nodes.map((node) => [node.id, resolveNodeStyle(definition, node.id)]));
    await writeLine(ctx.stdout, JSON.stringify({ workflow: display, definition, styles }, null, 2));
    return EXIT.succeeded;
  }
  for (const line of renderWorkflow(definition, display)) await writeLine(ctx.stdout, line);
  return EXIT.succeeded;
}

/**
 * `baton workflow graph`: the DOT Baton writes from the definition, or with `--svg` that DOT
 * drawn by Graphviz (a WebAssembly build, loaded only here: it is 2 MB).
 */
export async function workflowGraphCommand(ctx: CliContext, ref: string, options: { svg?: boolean; out?: string }): Promise<number> {
  const { definition } = await loadValid(ctx, ref);
  const text = options.svg ? await drawSvg(definition) : workflowToDot(definition);
  if (options.out === undefined) {
    ctx.stdout.write(text);
    return EXIT.succeeded;
  }
  const path = resolve(ctx.cwd, options.out);
  try {
    await writeFile(path, text);
  } catch (error) {
    throw new BatonError("write_failed", `cannot write ${options.out}: ${(error as Error).message}`, { hint: "choose a path in a folder that exists and can be written" });
  }
  return EXIT.succeeded;
}

async function drawSvg(definition: WorkflowDefinition): Promise<string> {
  const { Graphviz } = await import("@hpcc-js/wasm-graphviz");
  const graphviz = await Graphviz.load();
  return graphviz.dot(workflowToDot(definition), "svg");
}

function summary(loaded: LoadedWorkflow, errors: number, warnings: number): string {
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (errors > 0) return `${loaded.display}: ${count(errors, "error")}, ${count(warnings, "warning")}`;
  const shape = loaded.definition === undefined ? "" : `, ${count(loaded.definition.nodes.length, "stage")}, ${count(loaded.definition.edges.length, "edge")}`;
  return `${loaded.display}: ok${warnings > 0 ? ` with ${count(warnings, "warning")}` : ""}${shape}`;
}

/** A file with errors cannot be shown or drawn: its first error, and the way to see them all. Warnings go to stderr. */
async function loadValid(ctx: CliContext, ref: string) {
  const valid = await load(ctx, ref, loadValidWorkflow);
  for (const warning of valid.warnings) ctx.stderr.write(`${formatDiagnostic(warning)}\n`);
  return valid;
}

/** Names are found under the repository's root (its `.baton/workflows/`); outside a repository, under the cwd. */
async function load<T>(ctx: CliContext, ref: string, loader: (ref: string, options: { cwd: string; projectRoot: string; pipeline?: PipelineOptions }) => Promise<T>): Promise<T> {
  const projectRoot = await findRepoRoot(ctx.cwd).catch((error: unknown) => {
    if (isBatonError(error) && error.code === "not_a_git_repo") return ctx.cwd;
    throw error;
  });
  try {
    // The built-in pipeline is drawn as this project's config makes it.
    const config = ref === PIPELINE_WORKFLOW ? await loadConfig(join(projectRoot, ".baton")).catch(() => undefined) : undefined;
    return await loader(ref, config === undefined ? { cwd: ctx.cwd, projectRoot } : { cwd: ctx.cwd, projectRoot, pipeline: pipelineOptions(config, false, []) });
  } catch (error) {
    // The workflow package sits below the engine and has its own error class: same code, message and fix.
    if (isWorkflowError(error)) throw new BatonError(error.code, error.message, { hint: error.hint });
    throw error;
  }
}
