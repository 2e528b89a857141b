import type { WorkflowDefinition, WorkflowNode } from "../definition/schema.ts";
import { selectorText, STYLE_PROPERTIES, type StyleProperty, type StyleRule, type StyleSelector } from "./rules.ts";

/** A stage's effective agent, model, provider and reasoning effort, and where each came from. */
export type NodeStyle = Partial<Record<StyleProperty, string>> & { from: Partial<Record<StyleProperty, string>> };

/**
 * Resolves what a stage runs with. For each property, the node's own attribute wins; else the
 * matching stylesheet rule of highest specificity (`#id` 3, `.class` 2, shape 1, `*` 0), a later
 * rule winning a tie, as in CSS. `from` names the source: `"node"` or the rule's selector.
 *
 * @example resolveNodeStyle(definition, "implement") // { agent: "codex", model: "gpt-5.2", from: { agent: ".coding", model: "node" } }
 */
export function resolveNodeStyle(definition: WorkflowDefinition, nodeId: string): NodeStyle {
  const node = definition.nodes.find((candidate) => candidate.id === nodeId);
  if (node === undefined) return { from: {} };
  return styleOf(node, definition.stylesheet);
}

export function styleOf(node: WorkflowNode, rules: readonly StyleRule[]): NodeStyle {
  const chosen: Partial<Record<StyleProperty, { value: string; specificity: number; from: string }>> = {};
  for (const rule of rules) {
    if (!matches(rule.selector, node)) continue;
    for (const { property, value } of rule.declarations) {
      if (!(STYLE_PROPERTIES as readonly string[]).includes(property)) continue;
      const current = chosen[property as StyleProperty];
      if (current === undefined || rule.specificity >= current.specificity) chosen[property as StyleProperty] = { value, specificity: rule.specificity, from: selectorText(rule.selector) };
    }
  }
  const style: NodeStyle = { from: {} };
  for (const property of STYLE_PROPERTIES) {
    const own = node[property];
    const value = own ?? chosen[property]?.value;
    if (value === undefined) continue;
    style[property] = value;
    style.from[property] = own === undefined ? (chosen[property]?.from as string) : "node";
  }
  return style;
}

function matches(selector: StyleSelector, node: WorkflowNode): boolean {
  switch (selector.kind) {
    case "universal":
      return true;
    case "shape":
      return selector.shape.toLowerCase() === node.shape.toLowerCase();
    case "class":
      return node.classes.includes(selector.name);
    case "id":
      return selector.id === node.id;
  }
}
