import type { WorkflowNode } from "../definition/schema.ts";
import type { CheckContext } from "./context.ts";

/**
 * The graph's shape: exactly one start and one exit, nothing into start or out of exit, every
 * edge between stages that exist, every stage reachable from start, the exit reachable, and no
 * stage but the exit without a way out (the run would stop there with no route).
 */
export function checkStructure(ctx: CheckContext): void {
  const { definition } = ctx;
  const ids = new Set(definition.nodes.map((node) => node.id));
  const starts = definition.nodes.filter((node) => node.handler === "start");
  const exits = definition.nodes.filter((node) => node.handler === "exit");

  countOne(ctx, starts, "start", "start-node", "Mdiamond");
  countOne(ctx, exits, "exit", "exit-node", "Msquare");

  for (const edge of definition.edges) {
    for (const end of [edge.from, edge.to]) {
      if (!ids.has(end)) ctx.report("error", "edge-target", ctx.edgeAt(edge), `the edge ${edge.from} -> ${edge.to} names "${end}", which is no stage`, `add a stage "${end}", or correct the edge`);
    }
    const from = definition.nodes.find((node) => node.id === edge.from);
    const to = definition.nodes.find((node) => node.id === edge.to);
    if (to?.handler === "start") ctx.report("error", "start-incoming", ctx.edgeAt(edge), `the edge ${edge.from} -> ${edge.to} leads into the start stage`, "point it at the first real stage instead: start runs once");
    if (from?.handler === "exit") ctx.report("error", "exit-outgoing", ctx.edgeAt(edge), `the edge ${edge.from} -> ${edge.to} leaves the exit stage`, "remove it: the run ends at exit");
  }

  const start = starts[0];
  if (start === undefined) return;
  const reached = reachableFrom(ctx, start.id);
  for (const node of definition.nodes) {
    if (!reached.has(node.id) && node.handler !== "exit") ctx.report("error", "unreachable", ctx.nodeAt(node), `stage "${node.id}" cannot be reached from "${start.id}"`, `add an edge into "${node.id}", or remove it`);
  }
  for (const exit of exits) {
    if (reached.has(exit.id)) continue;
    ctx.report("error", "exit-unreachable", ctx.nodeAt(exit), `the exit "${exit.id}" cannot be reached from "${start.id}": the run could never end well`, `add an edge into "${exit.id}"`);
  }
  for (const node of definition.nodes) {
    if (node.handler === "exit" || !reached.has(node.id) || definition.edges.some((edge) => edge.from === node.id)) continue;
    ctx.report("error", "dead-end", ctx.nodeAt(node), `stage "${node.id}" has no outgoing edge: a run that reaches it fails with no route`, `add an edge from "${node.id}", to the exit at least`);
  }
}

function countOne(ctx: CheckContext, found: readonly WorkflowNode[], what: "start" | "exit", rule: string, shape: string): void {
  if (found.length === 1) return;
  if (found.length === 0) {
    ctx.report("error", rule, undefined, `the workflow has no ${what} stage`, `add one: ${what} [shape=${shape}]`);
    return;
  }
  for (const extra of found.slice(1)) {
    ctx.report("error", rule, ctx.nodeAt(extra), `the workflow has ${found.length} ${what} stages (${found.map((n) => n.id).join(", ")}); it needs exactly one`, `keep one ${what} stage and give the others another shape`);
  }
}

function reachableFrom(ctx: CheckContext, id: string): Set<string> {
  const reached = new Set([id]);
  const queue = [id];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const edge of ctx.definition.edges) {
      if (edge.from === next && !reached.has(edge.to)) {
        reached.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  return reached;
}
