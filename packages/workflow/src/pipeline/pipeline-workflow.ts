import { agent, conditional, defineWorkflow, edge, exit, fanIn, foreach, human, node, promptStage, start } from "../definition/builder.ts";
import type { WorkflowDefinition, WorkflowEdgeInput, WorkflowNodeInput } from "../definition/schema.ts";
import { SUBTASK_LIST_EXAMPLE, SUBTASK_LIST_RULES } from "./subtask-list.ts";

export const PIPELINE_WORKFLOW = "pipeline";

/** The stages a `[pipeline] approvals` entry may put a gate after: `merge` gates the delivery. */
export const PIPELINE_GATES = ["spec", "plan", "review", "merge"] as const;
export type PipelineGate = (typeof PIPELINE_GATES)[number];

export type PipelineOptions = {
  /** Gates by name (`[pipeline] approvals`): a person approves before going on. */
  approvals?: readonly PipelineGate[];
  /** Subtasks built at once (`[pipeline] max_parallel`). */
  maxParallel?: number;
  /** How the work lands: merged into the base (the default), or as a pull request (`--pr`). */
  delivery?: "merge" | "pull_request";
  /** Fix rounds after a failing validation (`[validation] max_fix_rounds`). */
  maxFixRounds?: number;
  /** Whether there are validation commands to run (`[validation] commands`, `--validate`): without, no validate stage. */
  validates?: boolean;
};

/** Where the pipeline's artefacts are written in the task's worktree (and committed with it). */
export const PIPELINE_DIR = ".pipeline";
export const SUBTASKS_FILE = `${PIPELINE_DIR}/subtasks.json`;

/**
 * The built-in `pipeline` workflow, the whole task pipeline: assess (a small task goes straight
 * to one build), spec and plan (artefacts), the plan's subtasks built in worktrees of their own
 * `maxParallel` at a time and integrated into the task branch one at a time (a conflicting one
 * rebuilt once on the integrated branch), validation ⇄ fix (when there are commands to run),
 * review, then merge or a pull request. Gates after the stages `approvals` names.
 */
export function pipelineWorkflow(options: PipelineOptions = {}): WorkflowDefinition {
  const gates = new Set(options.approvals ?? []);
  const validates = options.validates ?? true;
  // Where the work goes once built: validation (and fixes), else straight to review.
  const built = validates ? "check" : "review";
  const nodes: WorkflowNodeInput[] = [
    start(),
    exit(),
    promptStage(
      "assess",
      `Assess this task before any work starts: {{ goal }}\n\nIs it small (one focused change a single agent can make in one go) or large (it needs a spec, a plan and subtasks)? Change no file. End your answer with exactly one JSON object: {"preferred_label": "small"} or {"preferred_label": "large"}.`,
      { label: "Assess" },
    ),
    agent("spec", `Write the specification of this task to ${PIPELINE_DIR}/spec.md: what must be true when it is done, what is out of scope, and the edge cases. Change nothing else.\n\nTask: {{ goal }}`, { label: "Spec", artefact: `spec:${PIPELINE_DIR}/spec.md` }),
    agent(
      "plan",
      `Plan the work of ${PIPELINE_DIR}/spec.md. Write the plan to ${PIPELINE_DIR}/plan.md, and its subtasks to ${SUBTASKS_FILE}, a JSON file of exactly this shape:\n\n${SUBTASK_LIST_EXAMPLE}\n\n${SUBTASK_LIST_RULES} Change nothing else.\n\nTask: {{ goal }}`,
      { label: "Plan", artefact: `plan:${PIPELINE_DIR}/plan.md` },
    ),
    node("subtasks", "subtasks", { label: "Subtasks", script: SUBTASKS_FILE }),
    foreach("build_each", "subtasks", { label: "Build subtasks", max_parallel: options.maxParallel ?? 4 }),
    agent("build_subtask", `{{ context.item.prompt }}\n\nThis is subtask "{{ context.item.id }}" ({{ context.item.title }}) of the task: {{ goal }}\nDo this subtask only; other subtasks are built beside it.`, { label: "Build a subtask" }),
    fanIn("integrate", { label: "Integrate" }),
    conditional("conflicts", { label: "Conflicts?" }),
    agent(
      "rebuild",
      `These subtasks could not be merged into the task branch, which now holds the others' work: {{ context.subtasks.conflicted }}\n\nBuild each of them again on the current state of the branch, keeping what is there.`,
      { label: "Rebuild conflicting subtasks", max_visits: 1, rebuilds: "subtasks.conflicted" },
    ),
    agent("build", "{{ goal }}", { label: "Build" }),
    ...(validates ? [node("check", "validate", { label: "Validate" })] : []),
    ...(validates ? [agent("fix", "Validation failed after your work. Make the checks pass without weakening them:\n\n{{ context.validation.output }}", { label: "Fix", max_visits: (options.maxFixRounds ?? 2) + 1 })] : []),
    promptStage("review", "Review the work on this branch against the task (and .pipeline/spec.md when there is one): correctness, tests, anything left out. Change no file; say what you found.\n\nTask: {{ goal }}", { label: "Review" }),
    options.delivery === "pull_request" ? node("deliver", "pull_request", { label: "Pull request" }) : node("deliver", "merge", { label: "Merge" }),
  ];
  const edges: WorkflowEdgeInput[] = [
    edge("start", "assess"),
    edge("assess", "build", { label: "small" }),
    edge("assess", "spec", { label: "large" }),
    ...gated("spec", "plan"),
    ...gated("plan", "subtasks"),
    edge("subtasks", "build_each"),
    edge("build_each", "build_subtask"),
    edge("build_subtask", "integrate"),
    edge("integrate", "conflicts"),
    edge("conflicts", "rebuild", { condition: "context.subtasks.conflicted_count > 0" }),
    edge("conflicts", built),
    edge("rebuild", built),
    edge("build", built),
    ...(validates ? [edge("check", "review", { condition: "outcome=succeeded" }), edge("check", "fix", { condition: "outcome=failed" }), edge("fix", "check")] : []),
    ...gated("review", "deliver", "merge"),
    edge("deliver", "exit"),
  ];
  return defineWorkflow(PIPELINE_WORKFLOW, { nodes, edges });

  /** `from -> to`, through a gate `approve_<name>` when `approvals` names it. */
  function gated(from: string, to: string, name: string = from): WorkflowEdgeInput[] {
    if (!gates.has(name as PipelineGate)) return [edge(from, to)];
    const gate = `approve_${name}`;
    nodes.push(human(gate, name === "merge" ? (options.delivery === "pull_request" ? "Open the pull request?" : "Merge it?") : `Approve the ${name}?`));
    return [edge(from, gate), edge(gate, to, { label: "[A] Approve" }), edge(gate, "exit", { label: "[R] Reject" })];
  }
}
