import { PRESENTATION_ATTRIBUTES } from "../definition/attributes.ts";
import type { WorkflowDefinition } from "../definition/schema.ts";
import { styleOf } from "../stylesheet/resolve.ts";

/**
 * Plain DOT for drawing a definition with Graphviz: each stage in its handler's shape with
 * its label (and its agent and model after the stylesheet), each edge with its label and
 * condition, and the file's own drawing attributes (rankdir, colors, …). Baton writes this
 * text itself, so Graphviz only ever draws and never has to read the dialect.
 *
 * @example workflowToDot(singleWorkflow()) // 'digraph "single" {\n  "start" [shape=Mdiamond, label="start"];\n …'
 */
export function workflowToDot(definition: WorkflowDefinition): string {
  const lines = [`digraph ${quote(definition.name)} {`];
  for (const [key, value] of presentation(definition.graph.attributes)) lines.push(`  ${key}=${quote(value)};`);
  if (definition.graph.label !== undefined) lines.push(`  label=${quote(definition.graph.label)};`);
  for (const node of definition.nodes) {
    const style = node.handler === "agent" || node.handler === "prompt" ? styleOf(node, definition.stylesheet) : { from: {} };
    const runsWith = [style.agent, style.model].filter((part) => part !== undefined).join(" · ");
    const label = runsWith === "" ? node.label : `${node.label}\n${runsWith}`;
    lines.push(`  ${quote(node.id)} [${attributeList([["shape", node.shape], ["label", label], ...presentation(node.attributes)])}];`);
  }
  for (const edge of definition.edges) {
    const label = [edge.label, edge.condition === undefined ? undefined : `[${edge.condition.source}]`].filter((part) => part !== undefined).join("\n");
    const pairs = presentation(edge.attributes);
    if (label !== "") pairs.unshift(["label", label]);
    const attrs = attributeList(pairs);
    lines.push(`  ${quote(edge.from)} -> ${quote(edge.to)}${attrs === "" ? "" : ` [${attrs}]`};`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

function presentation(attributes: Readonly<Record<string, string>>): Array<[string, string]> {
  return Object.entries(attributes).filter(([key]) => PRESENTATION_ATTRIBUTES.has(key.toLowerCase()));
}

function attributeList(pairs: ReadonlyArray<[string, string]>): string {
  return pairs.map(([key, value]) => `${key}=${quote(value)}`).join(", ");
}

/** A DOT quoted string: backslash, quote and line breaks escaped. */
function quote(text: string): string {
  return `"${text.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n")}"`;
}
