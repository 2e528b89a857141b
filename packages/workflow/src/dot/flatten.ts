import type { SourcePos } from "../diagnostics/diagnostic.ts";
import type { DotAttr, DotGraph, DotStatement, DotSubgraph } from "./ast.ts";
import type { LiteralKind } from "./tokens.ts";

/** One attribute after scoping: where its value stands, and whether a `node`/`edge` default gave it. */
export type FlatAttr = { key: string; value: string; literal: LiteralKind | "string"; pos: SourcePos; keyPos: SourcePos; fromDefault: boolean };

export type FlatAttrs = Map<string, FlatAttr>;

export type FlatNode = {
  id: string;
  /** Where the node is first named. */
  pos: SourcePos;
  /** Whether a node statement names it (not only an edge). */
  declared: boolean;
  attrs: FlatAttrs;
  /** Classes from the labels of the subgraphs it is in, outermost first. */
  subgraphClasses: string[];
};

export type FlatEdge = { from: string; to: string; fromPos: SourcePos; toPos: SourcePos; attrs: FlatAttrs };

export type FlatSubgraph = { id: string | undefined; pos: SourcePos; attrs: FlatAttrs };

/** A graph with every default applied and every chain and subgraph operand expanded. */
export type FlatGraph = { name: string | undefined; pos: SourcePos; attrs: FlatAttrs; nodes: FlatNode[]; edges: FlatEdge[]; subgraphs: FlatSubgraph[] };

type Scope = { nodeDefaults: FlatAttrs; edgeDefaults: FlatAttrs; attrs: FlatAttrs; members: Set<string> };

/**
 * Applies DOT's scoping the way Graphviz does: `node [...]` and `edge [...]` give defaults to
 * nodes and edges made after them in the same (sub)graph and the subgraphs inside it; a node's
 * defaults are those in force where it is first named; later mentions add explicit attributes.
 * A subgraph's `label` becomes a class of every node in it (`"Loop A"` → `loop-a`).
 */
export function flattenGraph(graph: DotGraph): FlatGraph {
  const nodes = new Map<string, FlatNode>();
  const edges: FlatEdge[] = [];
  const subgraphs: FlatSubgraph[] = [];
  const root: Scope = { nodeDefaults: new Map(), edgeDefaults: new Map(), attrs: new Map(), members: new Set() };

  const mention = (id: string, pos: SourcePos, scope: Scope, attrs: readonly DotAttr[], declared: boolean) => {
    let node = nodes.get(id);
    if (node === undefined) {
      node = { id, pos, declared, attrs: asDefaults(scope.nodeDefaults), subgraphClasses: [] };
      nodes.set(id, node);
    }
    node.declared ||= declared;
    setAll(node.attrs, attrs);
    scope.members.add(id);
  };

  const walk = (body: readonly DotStatement[], scope: Scope) => {
    for (const statement of body) {
      switch (statement.kind) {
        case "attr_stmt":
          setAll(statement.target === "node" ? scope.nodeDefaults : statement.target === "edge" ? scope.edgeDefaults : scope.attrs, statement.attrs);
          break;
        case "assign":
          setAll(scope.attrs, [statement.attr]);
          break;
        case "node":
          mention(statement.id, statement.pos, scope, statement.attrs, true);
          break;
        case "subgraph":
          enter(statement, scope);
          break;
        case "edge": {
          const groups = statement.operands.map((operand) => {
            if (operand.kind === "subgraph") return [...enter(operand, scope)].map((id) => ({ id, pos: operand.pos }));
            mention(operand.id, operand.pos, scope, [], false);
            return [{ id: operand.id, pos: operand.pos }];
          });
          for (let k = 1; k < groups.length; k++) {
            for (const from of groups[k - 1] ?? []) {
              for (const to of groups[k] ?? []) {
                const attrs = asDefaults(scope.edgeDefaults);
                setAll(attrs, statement.attrs);
                edges.push({ from: from.id, to: to.id, fromPos: from.pos, toPos: to.pos, attrs });
              }
            }
          }
          break;
        }
      }
    }
  };

  /** Walks a subgraph in a scope of its own and returns the nodes it holds. */
  const enter = (subgraph: DotSubgraph, parent: Scope): Set<string> => {
    const scope: Scope = { nodeDefaults: new Map(parent.nodeDefaults), edgeDefaults: new Map(parent.edgeDefaults), attrs: new Map(), members: new Set() };
    walk(subgraph.body, scope);
    subgraphs.push({ id: subgraph.id, pos: subgraph.pos, attrs: scope.attrs });
    const label = scope.attrs.get("label")?.value;
    const className = label === undefined ? "" : classNameOf(label);
    for (const id of scope.members) {
      parent.members.add(id);
      const node = nodes.get(id);
      if (node !== undefined && className !== "" && !node.subgraphClasses.includes(className)) node.subgraphClasses.unshift(className);
    }
    return scope.members;
  };

  walk(graph.body, root);
  return { name: graph.name, pos: graph.pos, attrs: root.attrs, nodes: [...nodes.values()], edges, subgraphs };
}

/**
 * The class a subgraph label gives its nodes: lower case, every run of other characters a
 * single `-`.
 *
 * @example classNameOf("Loop A") // "loop-a"
 */
export function classNameOf(label: string): string {
  return label
    .toLowerCase()
    .replaceAll(/[^a-z0-9_]+/g, "-")
    .replaceAll(/^-+|-+$/g, "");
}

function setAll(target: FlatAttrs, attrs: readonly DotAttr[]): void {
  for (const { key, keyPos, value } of attrs) target.set(key, { key, value: value.text, literal: value.literal, pos: value.pos, keyPos, fromDefault: false });
}

/** The defaults in force, copied onto a new node or edge and marked as coming from a default. */
function asDefaults(defaults: FlatAttrs): FlatAttrs {
  return new Map([...defaults].map(([key, attr]) => [key, { ...attr, fromDefault: true }]));
}
