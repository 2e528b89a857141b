import { diagnostic, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { closestName } from "../diagnostics/suggest.ts";
import type { FlatAttr, FlatAttrs } from "../dot/flatten.ts";
import { EDGE_ATTRIBUTES, GRAPH_ATTRIBUTES, IGNORED_ATTRIBUTES, NODE_ATTRIBUTES, PRESENTATION_ATTRIBUTES, SPECIAL_NODE_ATTRIBUTES, type AttrSpec } from "./attributes.ts";
import type { Handler } from "./schema.ts";
import { readValue } from "./values.ts";

export type ElementKind = "graph" | "node" | "edge";

/** What an element's attributes gave: typed fields, the raw text of every attribute, and where each stands. */
export type ReadAttributes = {
  fields: Record<string, string | number | boolean>;
  raw: Record<string, string>;
  positions: Record<string, { line: number; column: number }>;
};

const KNOWN: Record<ElementKind, Readonly<Record<string, AttrSpec>>> = { graph: GRAPH_ATTRIBUTES, node: NODE_ATTRIBUTES, edge: EDGE_ATTRIBUTES };
const SPECIAL: Record<ElementKind, readonly string[]> = { graph: [], node: SPECIAL_NODE_ATTRIBUTES, edge: ["condition"] };

/**
 * Reads the attributes of one graph, node or edge: known ones into typed fields (a bad value is
 * an error), the dialect's ignored ones and unknown ones as warnings, Graphviz's drawing
 * attributes silently. `special` attributes (shape, type, class, condition) are left to the
 * caller. A default (`node [...]`) reported once per place, not once per node it reaches.
 */
export function readAttributes(attrs: FlatAttrs, kind: ElementKind, where: { file: string; handler?: Handler; what: string }, report: (d: Diagnostic) => void): ReadAttributes {
  const result: ReadAttributes = { fields: {}, raw: {}, positions: {} };
  const known = KNOWN[kind];
  for (const attr of attrs.values()) {
    result.raw[attr.key] = attr.value;
    result.positions[attr.key] = { line: attr.pos.line, column: attr.pos.column };
    if (SPECIAL[kind].includes(attr.key)) continue;
    const here = attr.fromDefault ? { ...where, what: `the ${kind} defaults` } : where;
    const spec = Object.hasOwn(known, attr.key) ? known[attr.key] : undefined;
    if (spec !== undefined) {
      readKnown(attr, spec, kind, here, report, result);
    } else if (PRESENTATION_ATTRIBUTES.has(attr.key.toLowerCase())) {
      continue;
    } else if ((IGNORED_ATTRIBUTES[kind] as readonly string[]).includes(attr.key)) {
      report(diagnostic(where.file, attr.keyPos, "warning", "ignored-attribute", `${kind} attribute "${attr.key}" of the dialect has no effect in Baton`, "remove it, or keep it for other engines"));
    } else {
      const guess = closestName(attr.key, [...Object.keys(known), ...SPECIAL[kind]]);
      const fix = guess === undefined ? `remove it; ${kind} attributes Baton reads are listed in docs/workflows.md` : `did you mean "${guess}"?`;
      report(diagnostic(where.file, attr.keyPos, "warning", "unknown-attribute", `unknown ${kind} attribute "${attr.key}" on ${here.what}`, fix));
    }
  }
  return result;
}

function readKnown(attr: FlatAttr, spec: AttrSpec, kind: ElementKind, where: { file: string; handler?: Handler; what: string }, report: (d: Diagnostic) => void, result: ReadAttributes): void {
  const value = readValue(attr.key, attr.value, spec.type);
  if (!value.ok) {
    report(diagnostic(where.file, attr.pos, "error", "bad-value", `${value.message} (on ${where.what})`, value.fix));
    return;
  }
  result.fields[spec.field] = value.value;
  // A default reaches every node of its scope; only an attribute written on the node itself is misplaced.
  if (kind === "node" && !attr.fromDefault && spec.handlers !== undefined && where.handler !== undefined && !spec.handlers.includes(where.handler)) {
    report(diagnostic(where.file, attr.keyPos, "warning", "misplaced-attribute", `"${attr.key}" has no effect on ${where.what}, a ${where.handler} stage`, `remove it: it is for ${spec.handlers.join(" and ")} stages`));
  }
}
