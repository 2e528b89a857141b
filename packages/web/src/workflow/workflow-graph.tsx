import { useMemo } from "preact/hooks";
import type { RunState } from "@baton/protocol/core";
import { layoutGraph, NODE_HEIGHT, NODE_WIDTH } from "./graph-layout.ts";
import { nodeStates } from "./node-states.ts";

/** Longest label drawn in a node; the whole one is its tooltip. */
const MAX_LABEL_CHARS = 17;
/** An option's accelerator (`[A] Approve`): the gate shows it, the drawing leaves it out. */
const ACCELERATOR = /^\s*\[[^\]]{1,3}\]\s*/;

/**
 * The run's workflow as `workflow.loaded` gave it, drawn as SVG, each node in its state from
 * the fold (live: the page re-renders as events arrive). The layout depends on the graph only.
 */
export function WorkflowGraph({ summary }: { summary: RunState }) {
  const { nodes, edges } = summary.workflow;
  const layout = useMemo(() => layoutGraph({ nodes, edges }), [nodes, edges]);
  const states = nodeStates(summary);
  return (
    <figure class="workflow-graph" aria-label={`Workflow ${summary.workflow.name ?? ""}`}>
      <svg viewBox={`0 0 ${layout.width} ${layout.height}`} width={layout.width} height={layout.height} role="img" aria-labelledby="workflow-graph-title">
        <title id="workflow-graph-title">{`Workflow ${summary.workflow.name ?? ""}: ${nodes.map((node) => `${node.label ?? node.id} ${states.get(node.id)?.words ?? ""}`).join(", ")}`}</title>
        <defs>
          <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0 0 L10 5 L0 10 z" class="arrow-head" />
          </marker>
        </defs>
        {layout.edges.map((edge, index) => (
          <g key={`e${index}`} class={`edge${edge.back ? " edge-back" : ""}`} data-from={edge.from} data-to={edge.to}>
            <path d={edge.path} marker-end="url(#arrow)" />
            {edge.label !== undefined && (
              <text x={edge.labelX} y={edge.labelY - 4} text-anchor="middle" class="edge-label">
                {edge.label.replace(ACCELERATOR, "")}
              </text>
            )}
          </g>
        ))}
        {layout.nodes.map((placed) => {
          const node = nodes.find((candidate) => candidate.id === placed.id);
          const view = states.get(placed.id) ?? { state: "not_visited" as const, words: "not visited", visits: 0 };
          const label = node?.label ?? placed.id;
          return (
            <g key={placed.id} class={`node node-${view.state} handler-${/^[a-z_]+$/.test(node?.handler ?? "") ? node?.handler : "other"}`} data-node={placed.id} data-state={view.state} transform={`translate(${placed.x} ${placed.y})`}>
              <title>{`${label} (${node?.handler ?? "stage"}): ${view.words}${view.visits > 1 ? `, ${view.visits} visits` : ""}`}</title>
              <rect width={NODE_WIDTH} height={NODE_HEIGHT} rx={node?.handler === "start" || node?.handler === "exit" ? NODE_HEIGHT / 2 : 6} />
              <text x={NODE_WIDTH / 2} y={19} text-anchor="middle" class="node-label">
                {label.length > MAX_LABEL_CHARS ? `${label.slice(0, MAX_LABEL_CHARS - 1)}…` : label}
              </text>
              <text x={NODE_WIDTH / 2} y={36} text-anchor="middle" class="node-state">
                {view.visits > 1 ? `${view.words} · ${view.visits}×` : view.words}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
