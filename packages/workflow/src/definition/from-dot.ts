import { basename, extname } from "node:path";
import { definedFields } from "@baton/protocol/core";
import type { Condition } from "../condition/ast.ts";
import { parseCondition } from "../condition/parse.ts";
import { diagnostic, sortDiagnostics, type Diagnostic, type SourcePos } from "../diagnostics/diagnostic.ts";
import { flattenGraph, type FlatAttr, type FlatEdge, type FlatGraph, type FlatNode } from "../dot/flatten.ts";
import { parseDot } from "../dot/parser.ts";
import { parseStylesheet } from "../stylesheet/parse.ts";
import type { StyleRule } from "../stylesheet/rules.ts";
import { SUBGRAPH_ATTRIBUTES, PRESENTATION_ATTRIBUTES } from "./attributes.ts";
import { handlerOfId } from "./handlers.ts";
import { resolveNodeHandler } from "./node-handler.ts";
import { readAttributes, type ReadAttributes } from "./read-attributes.ts";
import { workflowDefinitionSchema, type WorkflowDefinition, type WorkflowEdgeInput, type WorkflowNodeInput } from "./schema.ts";

export type ReadWorkflowResult = {
  /** Undefined when the file does not parse; otherwise the definition, with bad values left out. */
  definition: WorkflowDefinition | undefined;
  /** Parse refusals and what reading the attributes found, in file order. */
  diagnostics: Diagnostic[];
};

/**
 * Reads workflow text of the DOT dialect into one definition. `file` is the name diagnostics
 * use; `path` (absolute) is recorded so `@file` prompts resolve against it. Values are typed
 * (durations in ms, counts, booleans), conditions and the stylesheet parsed; what is wrong is
 * a diagnostic, never a throw. The structural rules are the checker's (`checkWorkflow`).
 *
 * @example readWorkflow("digraph { start -> exit }", { file: "wf.dot" }).definition?.nodes.map((n) => n.handler) // ["start", "exit"]
 */
export function readWorkflow(text: string, options: { file: string; path?: string }): ReadWorkflowResult {
  const parsed = parseDot(text, options.file);
  if (!parsed.ok) return { definition: undefined, diagnostics: [parsed.diagnostic] };
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  const report = (d: Diagnostic) => {
    // A default reaches many elements and would say the same thing at the same place each time.
    const key = `${d.rule}:${d.line}:${d.column}`;
    if (seen.has(key)) return;
    seen.add(key);
    diagnostics.push(d);
  };
  const flat = flattenGraph(parsed.graph);
  const file = options.file;
  const graph = readAttributes(flat.attrs, "graph", { file, what: "the graph" }, report);
  checkSubgraphs(flat, file, report);
  checkUndeclared(flat, file, report);
  const stylesheetAttr = flat.attrs.get("model_stylesheet");
  const definition = workflowDefinitionSchema.parse(
    definedFields({
      name: flat.name === undefined || flat.name === "" ? basename(file, extname(file)) : flat.name,
      file: options.path,
      graph: { ...graph.fields, attributes: graph.raw, source: sourceOf(flat.pos, graph) },
      nodes: flat.nodes.map((node) => nodeOf(node, file, report)),
      edges: flat.edges.map((edge) => edgeOf(edge, file, report)),
      stylesheet: stylesheetAttr === undefined ? [] : stylesheetOf(stylesheetAttr, file, report),
    }),
    // Once per workflow read: building zod's compiled fast path (its jit) costs more than it saves.
    { jitless: true },
  );
  return { definition, diagnostics: sortDiagnostics(diagnostics) };
}

function nodeOf(node: FlatNode, file: string, report: (d: Diagnostic) => void): WorkflowNodeInput {
  const { handler, shape } = resolveNodeHandler(node, file, report);
  const read = readAttributes(node.attrs, "node", { file, handler, what: `stage "${node.id}"` }, report);
  const explicit = (node.attrs.get("class")?.value ?? "").split(/[\s,]+/).filter((name) => name !== "");
  const over = read.fields.over;
  return definedFields({
    ...read.fields,
    id: node.id,
    handler,
    shape,
    label: typeof read.fields.label === "string" ? read.fields.label : node.id,
    classes: [...new Set([...explicit, ...node.subgraphClasses])],
    // The context key itself: `over="context.subtasks"` and `over="subtasks"` mean one list.
    over: typeof over === "string" ? over.replace(/^context\./, "") : undefined,
    attributes: read.raw,
    source: sourceOf(node.pos, read),
  });
}

function edgeOf(edge: FlatEdge, file: string, report: (d: Diagnostic) => void): WorkflowEdgeInput {
  const read = readAttributes(edge.attrs, "edge", { file, what: `the edge ${edge.from} -> ${edge.to}` }, report);
  const conditionAttr = edge.attrs.get("condition");
  let condition: Condition | undefined;
  if (conditionAttr !== undefined) {
    const parsed = parseCondition(conditionAttr.value);
    if (parsed.ok) condition = parsed.condition;
    else {
      const { column, message, fix } = parsed.problem;
      report(diagnostic(file, within(conditionAttr, 1, column), "error", "condition-syntax", `condition "${conditionAttr.value}" of ${edge.from} -> ${edge.to}, column ${column}: ${message}`, fix));
    }
  }
  return definedFields({ ...read.fields, from: edge.from, to: edge.to, condition, attributes: read.raw, source: sourceOf(edge.fromPos, read) });
}

function stylesheetOf(attr: FlatAttr, file: string, report: (d: Diagnostic) => void): StyleRule[] {
  const { rules, problems } = parseStylesheet(attr.value);
  for (const problem of problems) report(diagnostic(file, within(attr, problem.line, problem.column), problem.severity, problem.rule, `model_stylesheet: ${problem.message}`, problem.fix));
  return rules;
}

/** Only `label` of a subgraph means something to Baton; Graphviz's drawing attributes are fine too. */
function checkSubgraphs(flat: FlatGraph, file: string, report: (d: Diagnostic) => void): void {
  for (const subgraph of flat.subgraphs) {
    for (const attr of subgraph.attrs.values()) {
      if (SUBGRAPH_ATTRIBUTES.has(attr.key) || PRESENTATION_ATTRIBUTES.has(attr.key.toLowerCase())) continue;
      report(diagnostic(file, attr.keyPos, "warning", "unknown-attribute", `unknown subgraph attribute "${attr.key}"`, "a subgraph's label names a class of its nodes; set other attributes on nodes or in node [...]"));
    }
  }
}

/**
 * DOT makes a node of any name an edge mentions, so a misspelt target would silently become a
 * new, empty agent stage. Only start and exit may go undeclared: their id says what they are.
 */
function checkUndeclared(flat: FlatGraph, file: string, report: (d: Diagnostic) => void): void {
  for (const node of flat.nodes) {
    if (node.declared || handlerOfId(node.id) !== undefined) continue;
    report(diagnostic(file, node.pos, "error", "edge-target", `an edge names "${node.id}", which no node statement declares`, `declare it (${node.id} [label="…", prompt="…"]), or correct the name in the edge`));
  }
}

function sourceOf(pos: SourcePos, read: ReadAttributes) {
  return { line: pos.line, column: pos.column, attributes: read.positions };
}

/**
 * The file position of a place inside an attribute's value (1-based line and column of the
 * value's text). Exact for values without escapes, which conditions and stylesheets are.
 */
function within(attr: FlatAttr, line: number, column: number): SourcePos {
  const quote = attr.literal === "string" ? 1 : 0;
  if (line === 1) return { line: attr.pos.line, column: attr.pos.column + quote + column - 1, offset: attr.pos.offset + quote + column - 1 };
  return { line: attr.pos.line + line - 1, column, offset: attr.pos.offset };
}
