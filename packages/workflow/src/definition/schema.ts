import { z } from "zod";
import { conditionSchema } from "../condition/ast.ts";
import { styleRuleSchema } from "../stylesheet/rules.ts";

/**
 * What a stage does. `fan_in` is the dialect's `parallel.fan_in`; `foreach` is Baton's own;
 * `subworkflow` (`house`) is read but not run. `validate` (the project's validation commands)
 * `merge` (the run's branch into its base), `pull_request` (pushed, and opened on GitHub) and `subtasks` (a plan's subtask list read into the context) are Baton's, chosen by `type=` only.
 */
export const HANDLERS = ["start", "exit", "agent", "prompt", "command", "human", "conditional", "parallel", "fan_in", "wait", "foreach", "subworkflow", "validate", "merge", "pull_request", "subtasks"] as const;
export type Handler = (typeof HANDLERS)[number];

export const JOIN_POLICIES = ["wait_all", "first_success"] as const;

const count = z.number().int().min(0);
const ms = z.number().int().min(0);
const pos = z.strictObject({ line: z.number().int().min(1), column: z.number().int().min(1) });

/** Where an element and each of its attributes stand in the file it was read from. */
const sourceSchema = z.strictObject({ line: z.number().int().min(1), column: z.number().int().min(1), attributes: z.record(z.string(), pos) });

/** The raw attributes as written (values as text, defaults and subgraph scoping applied). */
const rawAttributes = z.record(z.string(), z.string());

export const workflowNodeSchema = z.strictObject({
  id: z.string().min(1),
  handler: z.enum(HANDLERS),
  /** The Graphviz shape it is drawn with (and that `shape` stylesheet selectors match). */
  shape: z.string().min(1),
  /** What views call the stage: its `label`, or its id. */
  label: z.string(),
  /** From `class` (comma or space separated) and the labels of the subgraphs holding it. */
  classes: z.array(z.string()).default([]),
  prompt: z.string().optional(),
  script: z.string().optional(),
  timeout_ms: ms.optional(),
  max_visits: count.optional(),
  max_retries: count.optional(),
  retry_target: z.string().optional(),
  fallback_retry_target: z.string().optional(),
  goal_gate: z.boolean().default(false),
  allow_partial: z.boolean().default(false),
  auto_status: z.boolean().default(false),
  thread_id: z.string().optional(),
  agent: z.string().optional(),
  model: z.string().optional(),
  provider: z.string().optional(),
  reasoning_effort: z.string().optional(),
  join_policy: z.enum(JOIN_POLICIES).optional(),
  max_parallel: z.number().int().min(1).optional(),
  duration_ms: ms.optional(),
  /** A human gate that also takes free text. */
  freeform: z.boolean().default(false),
  /** `foreach`: the context list it runs over (`context.subtasks`). */
  over: z.string().optional(),
  /** `human.default_choice`: the option a gate takes when its timeout passes. */
  default_choice: z.string().optional(),
  /** `merge`: how the run's branch lands in its base (`strategy=`); the project's `[delivery] strategy` when absent. */
  merge_strategy: z.enum(["merge", "squash", "ff-only"]).optional(),
  /** `pull_request`: open it as a draft (`draft=true`); the project's `[delivery] draft` when absent. */
  draft: z.boolean().optional(),
  /** An agent stage's artefact, `kind:path` (`spec:.pipeline/spec.md`): it must write the file, announced by `artefact.written`. */
  artefact: z.string().min(1).optional(),
  /** An agent stage that builds again the subtasks a fan-in could not merge: the context key listing them (`subtasks.conflicted`). */
  rebuilds: z.string().min(1).optional(),
  attributes: rawAttributes.default({}),
  source: sourceSchema.optional(),
});

export const workflowEdgeSchema = z.strictObject({
  from: z.string().min(1),
  to: z.string().min(1),
  label: z.string().optional(),
  condition: conditionSchema.optional(),
  weight: z.number().default(0),
  /** On a human gate's edge: free text that matches no option routes here. */
  freeform: z.boolean().default(false),
  attributes: rawAttributes.default({}),
  source: sourceSchema.optional(),
});

export const workflowGraphSchema = z.strictObject({
  goal: z.string().optional(),
  label: z.string().optional(),
  default_max_retries: count.optional(),
  retry_target: z.string().optional(),
  fallback_retry_target: z.string().optional(),
  max_node_visits: count.optional(),
  model_stylesheet: z.string().optional(),
  stall_timeout_ms: ms.optional(),
  loop_restart_signature_limit: z.number().int().min(1).optional(),
  attributes: rawAttributes.default({}),
  source: sourceSchema.optional(),
});

/** One workflow: its graph attributes, stages in file order, edges in file order, the parsed stylesheet. */
export const workflowDefinitionSchema = z
  .strictObject({
    name: z.string().min(1),
    /** The absolute path it was read from; `@file` prompts resolve against it. Absent for built-ins. */
    file: z.string().optional(),
    graph: workflowGraphSchema.default({ attributes: {} }),
    nodes: z.array(workflowNodeSchema),
    edges: z.array(workflowEdgeSchema),
    stylesheet: z.array(styleRuleSchema).default([]),
  })
  .superRefine((definition, ctx) => {
    // DOT merges every mention of a name into one node; a definition built in code must not hold two.
    const seen = new Set<string>();
    definition.nodes.forEach((node, index) => {
      if (seen.has(node.id)) ctx.addIssue({ code: "custom", path: ["nodes", index, "id"], message: `two stages are named "${node.id}"` });
      seen.add(node.id);
    });
  });

export type WorkflowNode = z.infer<typeof workflowNodeSchema>;
export type WorkflowEdge = z.infer<typeof workflowEdgeSchema>;
export type WorkflowGraph = z.infer<typeof workflowGraphSchema>;
export type WorkflowDefinition = z.infer<typeof workflowDefinitionSchema>;
export type WorkflowDefinitionInput = z.input<typeof workflowDefinitionSchema>;
export type WorkflowNodeInput = z.input<typeof workflowNodeSchema>;
export type WorkflowEdgeInput = z.input<typeof workflowEdgeSchema>;
