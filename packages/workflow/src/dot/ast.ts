import type { SourcePos } from "../diagnostics/diagnostic.ts";
import type { LiteralKind } from "./tokens.ts";

/** A value as written: its text (unescaped when quoted), how it reads, and where it stands. */
export type DotValue = { text: string; literal: LiteralKind | "string"; pos: SourcePos };

export type DotAttr = { key: string; keyPos: SourcePos; value: DotValue };

export type DotNodeRef = { kind: "node_ref"; id: string; pos: SourcePos };

export type DotSubgraph = { kind: "subgraph"; id: string | undefined; pos: SourcePos; body: DotStatement[] };

export type DotStatement =
  /** `graph [...]`, `node [...]`, `edge [...]`: attributes of the (sub)graph, or defaults. */
  | { kind: "attr_stmt"; target: "graph" | "node" | "edge"; attrs: DotAttr[]; pos: SourcePos }
  /** `key=value` in a graph or subgraph body: an attribute of that graph. */
  | { kind: "assign"; attr: DotAttr }
  | { kind: "node"; id: string; pos: SourcePos; attrs: DotAttr[] }
  /** `a -> b -> { c d } [attrs]`: two or more operands joined by `->`. */
  | { kind: "edge"; operands: Array<DotNodeRef | DotSubgraph>; attrs: DotAttr[]; pos: SourcePos }
  | DotSubgraph;

/** A parsed `digraph NAME { … }`. */
export type DotGraph = { name: string | undefined; pos: SourcePos; body: DotStatement[] };
