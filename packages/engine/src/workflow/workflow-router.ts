import type { StageOutcome, StageSignals } from "./stage-result.ts";

/** A stage of the workflow as the walker needs it (a node of the workflow definition). */
export type WalkNode = {
  id: string;
  handler: string;
  label: string;
  script?: string | undefined;
  timeout_ms?: number | undefined;
  max_visits?: number | undefined;
  max_retries?: number | undefined;
  retry_target?: string | undefined;
  fallback_retry_target?: string | undefined;
  goal_gate: boolean;
  allow_partial: boolean;
  auto_status: boolean;
  freeform: boolean;
  default_choice?: string | undefined;
  duration_ms?: number | undefined;
  /** Agent stages with the same thread share one session while the run's process lives. */
  thread_id?: string | undefined;
  /** A fan-out's: wait for every branch, or for the first that succeeds. */
  join_policy?: "wait_all" | "first_success" | undefined;
  max_parallel?: number | undefined;
  /** A `foreach`'s context list (the key, without `context.`). */
  over?: string | undefined;
  /** A `merge` stage's strategy (`strategy=`). */
  merge_strategy?: "merge" | "squash" | "ff-only" | undefined;
  /** A `pull_request` stage's `draft=`. */
  draft?: boolean | undefined;
  /** An agent stage's `artefact="kind:path"`. */
  artefact?: string | undefined;
  /** An agent stage's `rebuilds=`: the context key of the conflicting subtasks it builds again. */
  rebuilds?: string | undefined;
};

/** The graph-wide settings the walker applies. */
export type WalkGraph = {
  name: string;
  goal?: string | undefined;
  default_max_retries?: number | undefined;
  retry_target?: string | undefined;
  fallback_retry_target?: string | undefined;
  max_node_visits?: number | undefined;
  loop_restart_signature_limit?: number | undefined;
};

/** What routing looks at after a stage. */
export type RouteInput = { outcome: StageOutcome; signals?: StageSignals | undefined; context: Readonly<Record<string, unknown>> };

export type RouteChoice = { to: string; label?: string; condition?: string; reason: "condition" | "preferred_label" | "suggested_next" | "unconditional" };

export type GateOption = { label: string; to: string; key?: string };

/**
 * Everything the walker asks of the workflow definition: its stages, routing (WORKFLOWS.md
 * §3), a gate's options, an agent stage's prompt and agent, and the signals in an agent's
 * final message. The engine's adapter over `@baton/workflow` implements it; tests may too.
 */
export type WorkflowRouter = {
  readonly graph: WalkGraph;
  readonly startId: string;
  node(id: string): WalkNode | undefined;
  /** The edge to take after `from`, or undefined when none applies. */
  route(from: string, input: RouteInput): RouteChoice | undefined;
  /** A gate's options (its out-edges' labels, accelerators split off) and whether it takes free text, and where that goes. */
  gate(gate: string): { options: GateOption[]; freeform: boolean; freeformTo?: string };
  /** The prompt of an agent or prompt stage, expanded against the context. */
  prompt(node: string, context: Readonly<Record<string, unknown>>): Promise<string>;
  /** The agent and model a stage runs, after the model stylesheet; undefined fields: the run's own. */
  agentOf(node: string): { agent?: string | undefined; model?: string | undefined };
  /** The routing signals of an agent's final message (the last JSON object that carries one). */
  signalsOf(message: string): { outcome?: StageOutcome; signals?: StageSignals };
  /** Where a fan-out's branches start: its out-edges' targets, in edge order. */
  branchTargets(fanOut: string): string[];
  /** The fan-in a fan-out's branches end at (the first one they reach), if any. */
  fanIn(fanOut: string): string | undefined;
};
