import type { WorkflowDefinition } from "../definition/schema.ts";

/**
 * The stages a fan-out starts its branches at: the targets of its out-edges, in edge order,
 * each once. Every out-edge starts a branch; a fan-out does not route.
 */
export function branchTargets(definition: WorkflowDefinition, stage: string): string[] {
  const targets: string[] = [];
  for (const edge of definition.edges) if (edge.from === stage && !targets.includes(edge.to)) targets.push(edge.to);
  return targets;
}

/**
 * The fan-in a fan-out's branches meet at: the first `fan_in` stage reached from its
 * out-edges, breadth first in edge order (a branch walks until it gets there). Undefined when
 * no branch can reach one.
 *
 * @example fanInOf(definition, "review") // "gather"
 */
export function fanInOf(definition: WorkflowDefinition, stage: string): string | undefined {
  const handlers = new Map(definition.nodes.map((node) => [node.id, node.handler]));
  const seen = new Set([stage]);
  const queue = branchTargets(definition, stage);
  for (const id of queue) seen.add(id);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (handlers.get(next) === "fan_in") return next;
    for (const edge of definition.edges) {
      if (edge.from !== next || seen.has(edge.to)) continue;
      seen.add(edge.to);
      queue.push(edge.to);
    }
  }
  return undefined;
}
