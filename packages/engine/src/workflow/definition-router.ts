import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { createHash } from "node:crypto";
import { relative } from "node:path";
import { definedFields } from "@baton/protocol/core";
import { branchTargets, expandPrompt, extractRoutingSignals, fanInOf, gateChoices, resolveNodeStyle, selectNextEdge, stagePromptTemplate, type WorkflowDefinition } from "@baton/workflow";
import type { LoadedWorkflow } from "./execute-workflow.ts";
import type { GateOption, WorkflowRouter } from "./workflow-router.ts";

/**
 * The walker's view of a workflow definition read by `@baton/workflow`: routing, gates,
 * prompts (`@file` references read relative to the workflow file, `{{ goal }}` the graph's
 * goal or else the task) and the stylesheet's agent and model.
 */
export function definitionRouter(definition: WorkflowDefinition, run: { task: string; baseDir: string }): WorkflowRouter {
  const nodes = new Map(definition.nodes.map((node) => [node.id, node]));
  const startId = definition.nodes.find((node) => node.handler === "start")?.id ?? "start";
  const goal = definition.graph.goal ?? run.task;
  return {
    graph: { name: definition.name, ...definition.graph },
    startId,
    node: (id) => nodes.get(id),
    route(from, input) {
      const decision = selectNextEdge(definition, from, {
        outcome: input.outcome,
        preferredLabel: input.signals?.preferred_label,
        suggestedNextIds: input.signals?.suggested_next_ids,
        context: input.context,
      });
      if (decision.kind === "no_route") return undefined;
      return definedFields({ to: decision.edge.to, label: decision.edge.label, condition: decision.edge.condition?.source, reason: decision.reason });
    },
    gate(gate) {
      const choices = gateChoices(definition, gate);
      const options: GateOption[] = choices.options.map((option) => definedFields({ label: option.text, to: option.to, key: option.key }));
      return definedFields({ options, freeform: choices.acceptsText || nodes.get(gate)?.freeform === true, freeformTo: choices.freeformTo });
    },
    async prompt(id, context) {
      const node = nodes.get(id);
      if (node === undefined) return run.task;
      const template = await stagePromptTemplate(definition, node, { readFile: (path) => readFile(path, "utf8"), baseDir: run.baseDir, homeDir: homedir() });
      return expandPrompt(template, { goal, context });
    },
    agentOf(id) {
      const node = nodes.get(id);
      const style = resolveNodeStyle(definition, id);
      return { agent: node?.agent ?? style.agent, model: node?.model ?? style.model };
    },
    signalsOf(message) {
      const signals = extractRoutingSignals(message);
      if (signals === undefined) return {};
      return definedFields({
        outcome: signals.outcome,
        signals: definedFields({ preferred_label: signals.preferredLabel, suggested_next_ids: signals.suggestedNextIds, context_updates: signals.contextUpdates }),
      });
    },
    branchTargets: (fanOut) => branchTargets(definition, fanOut),
    fanIn: (fanOut) => fanInOf(definition, fanOut),
  };
}

/** The workflow as `workflow.loaded` records it: its file relative to the repository and the file's sha256. */
export async function loadedWorkflow(definition: WorkflowDefinition, repoRoot: string): Promise<LoadedWorkflow> {
  const text = definition.file === undefined ? undefined : await readFile(definition.file, "utf8").catch(() => undefined);
  return definedFields({
    name: definition.name,
    file: definition.file === undefined ? undefined : relative(repoRoot, definition.file),
    sha256: text === undefined ? undefined : createHash("sha256").update(text).digest("hex"),
    goal: definition.graph.goal,
    nodes: definition.nodes.map((node) => definedFields({ id: node.id, label: node.label === node.id ? undefined : node.label, handler: node.handler })),
    edges: definition.edges.map((edge) => definedFields({ from: edge.from, to: edge.to, label: edge.label, condition: edge.condition?.source })),
  });
}
