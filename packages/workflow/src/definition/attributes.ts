import { JOIN_POLICIES, type Handler } from "./schema.ts";

export type ValueType = "string" | "duration" | "count" | "positive" | "number" | "boolean" | { oneOf: readonly string[] };

/**
 * A known attribute: how its value reads, the definition field it fills, and the handlers it
 * means something for (elsewhere it is a `misplaced-attribute` warning).
 */
export type AttrSpec = { type: ValueType; field: string; handlers?: readonly Handler[] };

const LLM: readonly Handler[] = ["agent", "prompt"];
const FAN_OUT: readonly Handler[] = ["parallel", "foreach"];

export const GRAPH_ATTRIBUTES: Readonly<Record<string, AttrSpec>> = {
  goal: { type: "string", field: "goal" },
  label: { type: "string", field: "label" },
  default_max_retries: { type: "count", field: "default_max_retries" },
  retry_target: { type: "string", field: "retry_target" },
  fallback_retry_target: { type: "string", field: "fallback_retry_target" },
  max_node_visits: { type: "count", field: "max_node_visits" },
  model_stylesheet: { type: "string", field: "model_stylesheet" },
  stall_timeout: { type: "duration", field: "stall_timeout_ms" },
  loop_restart_signature_limit: { type: "positive", field: "loop_restart_signature_limit" },
};

/** `shape`, `type` and `class` are read separately (they choose the handler and the classes). */
export const NODE_ATTRIBUTES: Readonly<Record<string, AttrSpec>> = {
  label: { type: "string", field: "label" },
  prompt: { type: "string", field: "prompt", handlers: LLM },
  script: { type: "string", field: "script", handlers: ["command", "validate", "subtasks"] },
  artefact: { type: "string", field: "artefact", handlers: LLM },
  rebuilds: { type: "string", field: "rebuilds", handlers: LLM },
  strategy: { type: { oneOf: ["merge", "squash", "ff-only"] }, field: "merge_strategy", handlers: ["merge"] },
  draft: { type: "boolean", field: "draft", handlers: ["pull_request"] },
  timeout: { type: "duration", field: "timeout_ms" },
  max_visits: { type: "count", field: "max_visits" },
  max_retries: { type: "count", field: "max_retries" },
  retry_target: { type: "string", field: "retry_target" },
  fallback_retry_target: { type: "string", field: "fallback_retry_target" },
  goal_gate: { type: "boolean", field: "goal_gate" },
  allow_partial: { type: "boolean", field: "allow_partial" },
  auto_status: { type: "boolean", field: "auto_status" },
  thread_id: { type: "string", field: "thread_id", handlers: LLM },
  agent: { type: "string", field: "agent", handlers: LLM },
  model: { type: "string", field: "model", handlers: LLM },
  provider: { type: "string", field: "provider", handlers: LLM },
  reasoning_effort: { type: "string", field: "reasoning_effort", handlers: LLM },
  join_policy: { type: { oneOf: JOIN_POLICIES }, field: "join_policy", handlers: FAN_OUT },
  max_parallel: { type: "positive", field: "max_parallel", handlers: FAN_OUT },
  duration: { type: "duration", field: "duration_ms", handlers: ["wait"] },
  freeform: { type: "boolean", field: "freeform", handlers: ["human"] },
  over: { type: "string", field: "over", handlers: ["foreach"] },
  "human.default_choice": { type: "string", field: "default_choice", handlers: ["human"] },
  "human.timeout": { type: "duration", field: "timeout_ms", handlers: ["human"] },
};

export const SPECIAL_NODE_ATTRIBUTES = ["shape", "type", "class"] as const;

/** `condition` is read separately: it is parsed. */
export const EDGE_ATTRIBUTES: Readonly<Record<string, AttrSpec>> = {
  label: { type: "string", field: "label" },
  weight: { type: "number", field: "weight" },
  freeform: { type: "boolean", field: "freeform" },
};

/** Attributes of the dialect that Baton reads without acting on them: a warning says so. */
export const IGNORED_ATTRIBUTES = {
  graph: ["default_fidelity", "default_thread"],
  node: ["fidelity", "retry_policy", "selection", "max_tokens", "project_memory", "backend", "language", "stack.child_workflow", "stack.child_dot_source", "manager.poll_interval", "manager.max_cycles", "manager.stop_condition"],
  edge: ["fidelity", "thread_id", "loop_restart"],
} as const;

/**
 * Graphviz's drawing attributes: they change how a graph looks, not what it does, so they are
 * accepted without a word (and kept for `baton workflow graph`).
 */
export const PRESENTATION_ATTRIBUTES: ReadonlySet<string> = new Set([
  "rankdir", "rank", "ranksep", "nodesep", "newrank", "splines", "bgcolor", "fontname", "fontsize", "fontcolor", "color", "fillcolor",
  "style", "penwidth", "width", "height", "fixedsize", "margin", "pad", "labelloc", "labeljust", "xlabel", "tooltip", "url", "href",
  "target", "peripheries", "dir", "arrowhead", "arrowtail", "arrowsize", "constraint", "minlen", "headlabel", "taillabel",
  "labelfontsize", "labelfontcolor", "compound", "concentrate", "ordering", "size", "ratio", "center", "group", "layout", "sep",
  "overlap", "comment", "charset", "dpi", "orientation", "rotate", "gradientangle", "sides", "skew", "distortion", "regular",
  "imagescale", "image", "nojustify", "outputorder", "decorate", "samehead", "sametail", "lhead", "ltail", "headport", "tailport",
]);

/** Subgraph attributes Baton reads: `label` becomes a class of its nodes. */
export const SUBGRAPH_ATTRIBUTES: ReadonlySet<string> = new Set(["label"]);
