import { definedFields } from "@baton/protocol/core";
import { parseConditionOrThrow } from "../condition/parse.ts";
import { WorkflowError } from "../errors.ts";
import { parseStylesheet } from "../stylesheet/parse.ts";
import { HANDLER_SHAPES } from "./handlers.ts";
import {
  workflowDefinitionSchema,
  type Handler,
  type WorkflowDefinition,
  type WorkflowEdgeInput,
  type WorkflowGraph,
  type WorkflowNodeInput,
} from "./schema.ts";

/** A node's fields other than id and handler; `shape` and `label` default to the handler's shape and the id. */
export type NodeOptions = Omit<WorkflowNodeInput, "id" | "handler" | "shape" | "label" | "source"> & { shape?: string; label?: string };

/** An edge's fields, with the condition written as text (parsed here; a bad one throws). */
export type EdgeOptions = Omit<WorkflowEdgeInput, "from" | "to" | "condition" | "source"> & { condition?: string };

export type WorkflowSpec = Omit<Partial<WorkflowGraph>, "source" | "attributes"> & {
  nodes: WorkflowNodeInput[];
  edges: WorkflowEdgeInput[];
  file?: string;
};

/**
 * Builds a definition in TypeScript, the same one `readWorkflow` makes from the DOT text that
 * says the same (tests, built-ins). The result is checked by the schema; the structural rules
 * are `checkWorkflow`'s.
 *
 * @example
 * defineWorkflow("fix", {
 *   goal: "Make the tests pass",
 *   nodes: [start(), agent("fix", "Fix the failing test"), command("check", "npm test"), exit()],
 *   edges: [...chain("start", "fix", "check"), edge("check", "exit", { condition: "outcome=succeeded" }), edge("check", "fix")],
 * });
 */
export function defineWorkflow(name: string, spec: WorkflowSpec): WorkflowDefinition {
  const { nodes, edges, file, ...graph } = spec;
  const stylesheet = graph.model_stylesheet === undefined ? { rules: [], problems: [] } : parseStylesheet(graph.model_stylesheet);
  const error = stylesheet.problems.find((problem) => problem.severity === "error");
  if (error !== undefined) throw new WorkflowError("bad_definition", `model_stylesheet, line ${error.line}, column ${error.column}: ${error.message}`, { hint: error.fix });
  const parsed = workflowDefinitionSchema.safeParse(definedFields({ name, file, graph: { ...graph, attributes: {} }, nodes, edges, stylesheet: stylesheet.rules }));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new WorkflowError("bad_definition", `workflow "${name}": ${issue?.path.join(".") ?? ""}: ${issue?.message ?? "invalid"}`, { hint: "fix the definition" });
}

export function node(id: string, handler: Handler, options: NodeOptions = {}): WorkflowNodeInput {
  const { shape, label, ...rest } = options;
  return { ...rest, id, handler, shape: shape ?? HANDLER_SHAPES[handler], label: label ?? id };
}

export const start = (id = "start", options: NodeOptions = {}) => node(id, "start", options);
export const exit = (id = "exit", options: NodeOptions = {}) => node(id, "exit", options);
export const agent = (id: string, prompt: string, options: NodeOptions = {}) => node(id, "agent", { ...options, prompt });
export const promptStage = (id: string, prompt: string, options: NodeOptions = {}) => node(id, "prompt", { ...options, prompt });
export const command = (id: string, script: string, options: NodeOptions = {}) => node(id, "command", { ...options, script });
export const human = (id: string, label: string, options: NodeOptions = {}) => node(id, "human", { ...options, label });
export const conditional = (id: string, options: NodeOptions = {}) => node(id, "conditional", options);
export const parallel = (id: string, options: NodeOptions = {}) => node(id, "parallel", options);
export const fanIn = (id: string, options: NodeOptions = {}) => node(id, "fan_in", options);
export const wait = (id: string, durationMs: number, options: NodeOptions = {}) => node(id, "wait", { ...options, duration_ms: durationMs });
/** `over` is the context key of the list (`subtasks`, or `context.subtasks`). */
export const foreach = (id: string, over: string, options: NodeOptions = {}) => node(id, "foreach", { ...options, over: over.replace(/^context\./, "") });

export function edge(from: string, to: string, options: EdgeOptions = {}): WorkflowEdgeInput {
  const { condition, ...rest } = options;
  return definedFields({ ...rest, from, to, condition: condition === undefined ? undefined : parseConditionOrThrow(condition) });
}

/** `a -> b -> c` as plain edges. */
export function chain(...ids: string[]): WorkflowEdgeInput[] {
  return ids.slice(1).map((to, k) => edge(ids[k] as string, to));
}
