import type { WorkflowNode } from "../definition/schema.ts";
import { gateChoices, matchGateAnswer } from "../gate/options.ts";
import { promptFileReference, resolvePromptFile } from "../prompt/files.ts";
import { fanInOf } from "../route/fan-out.ts";
import type { CheckContext } from "./context.ts";

/** What each kind of stage needs to run: a prompt, a script, a duration, a list, its options, its targets. */
export function checkStages(ctx: CheckContext): void {
  const ids = new Set(ctx.definition.nodes.map((node) => node.id));
  for (const node of ctx.definition.nodes) {
    checkContent(ctx, node);
    for (const attribute of ["retry_target", "fallback_retry_target"] as const) {
      const target = node[attribute];
      if (target !== undefined && !ids.has(target)) {
        ctx.report("error", "retry-target", ctx.nodeAt(node, attribute), `${attribute}="${target}" of stage "${node.id}" is no stage`, `name an existing stage, or remove ${attribute}`);
      }
    }
  }
  for (const attribute of ["retry_target", "fallback_retry_target"] as const) {
    const target = ctx.definition.graph[attribute];
    if (target !== undefined && !ids.has(target)) ctx.report("error", "retry-target", ctx.graphAt(attribute), `the graph's ${attribute}="${target}" is no stage`, `name an existing stage, or remove ${attribute}`);
  }
}

function checkContent(ctx: CheckContext, node: WorkflowNode): void {
  const out = ctx.definition.edges.filter((edge) => edge.from === node.id);
  switch (node.handler) {
    case "agent":
    case "prompt":
      checkPrompt(ctx, node);
      break;
    case "command":
      if (node.script === undefined || node.script.trim() === "") ctx.report("error", "missing-script", ctx.nodeAt(node), `command stage "${node.id}" has no script`, 'add script="…", the shell command it runs');
      break;
    case "wait":
      if (node.duration_ms === undefined) ctx.report("error", "missing-duration", ctx.nodeAt(node), `wait stage "${node.id}" has no duration`, "add duration=30s (or 250ms, 15m, 2h, 1d)");
      break;
    case "foreach":
      if (node.over === undefined || !/^[A-Za-z0-9_.-]+$/.test(node.over)) ctx.report("error", "foreach-over", ctx.nodeAt(node, "over"), `foreach stage "${node.id}" needs the context list it runs over`, 'add over="context.KEY", the key an earlier stage writes the list to');
      if (out.length !== 1) ctx.report("error", "foreach-edges", ctx.nodeAt(node), `foreach stage "${node.id}" has ${out.length} outgoing edges`, "give it exactly one: the first stage run for each item");
      checkFanIn(ctx, node, out.length);
      break;
    case "parallel":
      checkFanIn(ctx, node, out.length);
      break;
    case "human":
      checkGate(ctx, node);
      break;
    case "conditional":
      if (out.length > 0 && out.every((edge) => edge.condition === undefined)) {
        ctx.report("warning", "conditional-edges", ctx.nodeAt(node), `conditional stage "${node.id}" has no edge with a condition: it always takes the same way`, 'add condition="…" to its edges, or make it an ordinary stage');
      }
      break;
    case "subworkflow":
      ctx.report("error", "unsupported-handler", ctx.nodeAt(node, "shape"), `stage "${node.id}" is a sub-workflow (house), which Baton does not run`, "inline the sub-workflow's stages into this graph");
      break;
    default:
      break;
  }
}

/** A fan-out's branches end at a fan-in, where they are merged; without one they would never come back. */
function checkFanIn(ctx: CheckContext, node: WorkflowNode, outgoing: number): void {
  if (outgoing === 0 || fanInOf(ctx.definition, node.id) !== undefined) return;
  ctx.report("error", "fan-in", ctx.nodeAt(node), `${node.handler} stage "${node.id}" reaches no fan-in stage: its branches would never be merged`, "add a fan-in stage (shape=tripleoctagon) where its branches meet, and an edge from it onwards");
}

function checkPrompt(ctx: CheckContext, node: WorkflowNode): void {
  if (node.prompt === undefined) {
    // A stage may use its label as its prompt, but only a label written on purpose: an id alone says nothing to an agent.
    const labelled = node.attributes.label !== undefined || node.label !== node.id;
    if (!labelled) ctx.report("error", "missing-prompt", ctx.nodeAt(node), `${node.handler} stage "${node.id}" has no prompt and no label`, 'add prompt="…" (or prompt="@file.md")');
    return;
  }
  const reference = promptFileReference(node.prompt);
  if (reference === undefined) return;
  const path = resolvePromptFile(reference, { workflowFile: ctx.definition.file, baseDir: ctx.options.baseDir, homeDir: ctx.options.homeDir });
  if (!ctx.options.fileExists(path)) {
    ctx.report("error", "prompt-file", ctx.nodeAt(node, "prompt"), `the prompt file "${reference}" of stage "${node.id}" does not exist (looked for ${path})`, "create the file, or correct the path (relative to the workflow file)");
  }
}

function checkGate(ctx: CheckContext, node: WorkflowNode): void {
  const choices = gateChoices(ctx.definition, node.id);
  if (node.default_choice !== undefined && matchGateAnswer(choices, node.default_choice) === undefined) {
    const known = choices.options.map((option) => option.text).join(", ") || "none";
    ctx.report("error", "default-choice", ctx.nodeAt(node, "human.default_choice"), `human.default_choice="${node.default_choice}" of gate "${node.id}" is none of its options (${known})`, "use an option's words or accelerator key");
  }
}
