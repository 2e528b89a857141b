import { resolveNodeStyle, type WorkflowDefinition, type WorkflowEdge } from "@baton/workflow";

const LABEL_WIDTH = 40;

/**
 * What `baton workflow show` prints: a heading, the stages as a table (id, handler, label,
 * and for agent and prompt stages the agent and model the stylesheet gives them; `-` where
 * the run's own agent and model apply), then one line per edge with its label and condition.
 */
export function renderWorkflow(definition: WorkflowDefinition, display: string): string[] {
  const lines = [`workflow ${definition.name}${display === definition.name ? "" : ` (${display})`}`];
  if (definition.graph.goal !== undefined) lines.push(`goal: ${oneLine(definition.graph.goal, 100)}`);
  lines.push("", "STAGES");
  const rows = definition.nodes.map((node) => {
    const style = node.handler === "agent" || node.handler === "prompt" ? resolveNodeStyle(definition, node.id) : { agent: undefined, model: undefined };
    return [node.id, node.handler, oneLine(node.label, LABEL_WIDTH), style.agent ?? "-", style.model ?? "-"];
  });
  lines.push(...table(["ID", "HANDLER", "LABEL", "AGENT", "MODEL"], rows));
  lines.push("", "EDGES");
  const width = Math.max(0, ...definition.edges.map((edge) => `${edge.from} -> ${edge.to}`.length));
  for (const edge of definition.edges) lines.push(`  ${`${edge.from} -> ${edge.to}`.padEnd(width)}${describeEdge(edge)}`.trimEnd());
  return lines;
}

function describeEdge(edge: WorkflowEdge): string {
  const parts = [
    edge.label === undefined ? undefined : `label "${edge.label}"`,
    edge.condition === undefined ? undefined : `if ${edge.condition.source}`,
    edge.weight === 0 ? undefined : `weight ${edge.weight}`,
    edge.freeform ? "free text" : undefined,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? "" : `  ${parts.join(", ")}`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const format = (row: string[]) => `  ${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ")}`.trimEnd();
  return [format(header), ...rows.map(format)];
}

function oneLine(text: string, max: number): string {
  const line = text.replaceAll(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
