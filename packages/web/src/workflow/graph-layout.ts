// A layered drawing of a workflow graph, left to right, computed here so the page needs no
// Graphviz: back edges (those that close a loop) are found by a depth-first walk from the
// start, every other edge points to a later layer (a node's layer is its longest path from
// the start), and each layer is ordered by the mean position of its predecessors.

export type LayoutInput = { nodes: readonly { id: string; handler?: string }[]; edges: readonly { from: string; to: string; label?: string }[] };
export type PlacedNode = { id: string; x: number; y: number; layer: number };
export type PlacedEdge = { from: string; to: string; label?: string; back: boolean; path: string; labelX: number; labelY: number };
export type GraphLayout = { nodes: PlacedNode[]; edges: PlacedEdge[]; width: number; height: number };

export const NODE_WIDTH = 128;
export const NODE_HEIGHT = 46;
const GAP_X = 48;
const GAP_Y = 26;
const PAD = 12;
/** How far below the nodes a back edge dips, and how much room that takes at the bottom. */
const BACK_DIP = 30;

export function layoutGraph(input: LayoutInput): GraphLayout {
  const ids = input.nodes.map((node) => node.id);
  const known = new Set(ids);
  const edges = input.edges.filter((edge) => known.has(edge.from) && known.has(edge.to));
  const out = new Map(ids.map((id) => [id, [] as number[]]));
  edges.forEach((edge, index) => out.get(edge.from)!.push(index));

  // Depth-first from the start (then from any node not reached): an edge to a node still on
  // the walk's path closes a loop. The finishing order, reversed, is a topological order of the rest.
  const back = new Set<number>();
  const state = new Map<string, "open" | "done">();
  const finished: string[] = [];
  const discovered: string[] = [];
  const visit = (id: string) => {
    state.set(id, "open");
    discovered.push(id);
    for (const index of out.get(id)!) {
      const to = edges[index]!.to;
      const seen = state.get(to);
      if (seen === "open") back.add(index);
      else if (seen === undefined) visit(to);
    }
    state.set(id, "done");
    finished.push(id);
  };
  const roots = [...input.nodes.filter((node) => node.handler === "start" || node.id === "start").map((node) => node.id), ...ids];
  for (const id of roots) if (!state.has(id)) visit(id);

  const layer = new Map(ids.map((id) => [id, 0]));
  for (const id of finished.reverse()) {
    for (const index of out.get(id)!) {
      if (back.has(index)) continue;
      const to = edges[index]!.to;
      if (to !== id) layer.set(to, Math.max(layer.get(to)!, layer.get(id)! + 1));
    }
  }

  const layers: string[][] = [];
  for (const id of discovered) (layers[layer.get(id)!] ??= []).push(id);
  const position = new Map<string, number>();
  const predecessors = new Map(ids.map((id) => [id, [] as string[]]));
  edges.forEach((edge, index) => {
    if (!back.has(index)) predecessors.get(edge.to)!.push(edge.from);
  });
  for (const members of layers) {
    if (members === undefined) continue;
    const mean = (id: string) => {
      const placed = predecessors.get(id)!.filter((from) => position.has(from)).map((from) => position.get(from)!);
      return placed.length === 0 ? Number.POSITIVE_INFINITY : placed.reduce((a, b) => a + b, 0) / placed.length;
    };
    const order = members.map((id, index) => ({ id, index, mean: mean(id) })).sort((a, b) => a.mean - b.mean || a.index - b.index);
    order.forEach((entry, index) => {
      members[index] = entry.id;
      position.set(entry.id, index);
    });
  }

  const tallest = Math.max(1, ...layers.map((members) => members?.length ?? 0));
  const columnHeight = tallest * NODE_HEIGHT + (tallest - 1) * GAP_Y;
  const placed = new Map<string, PlacedNode>();
  layers.forEach((members, index) => {
    if (members === undefined) return;
    const height = members.length * NODE_HEIGHT + (members.length - 1) * GAP_Y;
    members.forEach((id, row) => {
      placed.set(id, { id, layer: index, x: PAD + index * (NODE_WIDTH + GAP_X), y: PAD + (columnHeight - height) / 2 + row * (NODE_HEIGHT + GAP_Y) });
    });
  });

  const hasBack = edges.some((_, index) => back.has(index) || edges[index]!.from === edges[index]!.to);
  const bottom = PAD + columnHeight;
  const routed = edges.map((edge, index) => route(edge, placed.get(edge.from)!, placed.get(edge.to)!, back.has(index) || layer.get(edge.to)! <= layer.get(edge.from)!, bottom));
  return {
    nodes: ids.map((id) => placed.get(id)!),
    edges: routed,
    width: PAD * 2 + layers.length * NODE_WIDTH + Math.max(0, layers.length - 1) * GAP_X,
    height: bottom + PAD + (hasBack ? BACK_DIP : 0),
  };
}

type Point = [number, number];

function route(edge: LayoutInput["edges"][number], from: PlacedNode, to: PlacedNode, back: boolean, bottom: number): PlacedEdge {
  let points: [Point, Point, Point, Point];
  if (back) {
    // Under the nodes: from the source's bottom down and along to the target's bottom.
    const dip = bottom + BACK_DIP * 0.8;
    const start: Point = [from.x + NODE_WIDTH / 2 + 10, from.y + NODE_HEIGHT];
    const end: Point = [to.x + NODE_WIDTH / 2 - 10, to.y + NODE_HEIGHT];
    points = [start, [start[0], dip], [end[0], dip], end];
  } else {
    const start: Point = [from.x + NODE_WIDTH, from.y + NODE_HEIGHT / 2];
    const end: Point = [to.x, to.y + NODE_HEIGHT / 2];
    const bend = (end[0] - start[0]) / 2;
    points = [start, [start[0] + bend, start[1]], [end[0] - bend, end[1]], end];
  }
  const [p0, p1, p2, p3] = points;
  // The curve's middle (t = 1/2), where its label goes.
  const labelX = (p0[0] + 3 * p1[0] + 3 * p2[0] + p3[0]) / 8;
  const labelY = (p0[1] + 3 * p1[1] + 3 * p2[1] + p3[1]) / 8;
  const path = `M${p0.join(" ")} C${p1.join(" ")} ${p2.join(" ")} ${p3.join(" ")}`;
  const placedEdge: PlacedEdge = { from: edge.from, to: edge.to, back, path, labelX, labelY };
  if (edge.label !== undefined) placedEdge.label = edge.label;
  return placedEdge;
}
