import { dirname, isAbsolute, join, resolve } from "node:path";
import type { WorkflowDefinition, WorkflowNode } from "../definition/schema.ts";

/**
 * The path a prompt names when it is a file reference (`@prompts/plan.md`), else undefined.
 *
 * @example promptFileReference("@prompts/plan.md") // "prompts/plan.md"
 */
export function promptFileReference(prompt: string): string | undefined {
  const trimmed = prompt.trim();
  if (!trimmed.startsWith("@") || trimmed.length === 1 || /\s/.test(trimmed)) return undefined;
  return trimmed.slice(1);
}

/**
 * Where a prompt file reference points: relative to the workflow file's folder (or `baseDir`
 * for a workflow read from no file), `~/` to the home folder.
 */
export function resolvePromptFile(reference: string, where: { workflowFile: string | undefined; baseDir: string; homeDir: string }): string {
  if (reference === "~" || reference.startsWith("~/")) return join(where.homeDir, reference.slice(1));
  if (isAbsolute(reference)) return reference;
  return resolve(where.workflowFile === undefined ? where.baseDir : dirname(where.workflowFile), reference);
}

export type PromptFileReader = (path: string) => Promise<string>;

/**
 * The prompt template of an agent or prompt stage: its `prompt`, the file it references, or
 * else its label. Not yet expanded (see `expandPrompt`).
 */
export async function stagePromptTemplate(
  definition: WorkflowDefinition,
  node: WorkflowNode,
  io: { readFile: PromptFileReader; baseDir: string; homeDir: string },
): Promise<string> {
  const prompt = node.prompt ?? node.label;
  const reference = promptFileReference(prompt);
  if (reference === undefined) return prompt;
  return io.readFile(resolvePromptFile(reference, { workflowFile: definition.file, baseDir: io.baseDir, homeDir: io.homeDir }));
}
