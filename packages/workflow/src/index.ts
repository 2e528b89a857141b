/**
 * @baton/workflow: Baton's workflow definitions, and the pure pieces of running them.
 *
 * - Read a workflow of the DOT dialect: `readWorkflow(text, { file })` (or `parseDot` for the
 *   syntax tree), or build one in TypeScript with `defineWorkflow` and the stage helpers.
 * - Find and load one by name or path: `locateWorkflow`, `loadWorkflow`, `loadValidWorkflow`;
 *   `singleWorkflow()` is the built-in `single`.
 * - Check it: `checkWorkflow`, diagnostics printed by `formatDiagnostic`.
 * - Route through it: `parseCondition` / `evaluateCondition`, `selectNextEdge`,
 *   `extractRoutingSignals`, `gateChoices` / `matchGateAnswer`, `expandPrompt`,
 *   `stagePromptTemplate`, `resolveNodeStyle`; a fan-out's `branchTargets` and `fanInOf`.
 * - Draw it: `workflowToDot` (DOT for Graphviz, written by Baton).
 *
 * @example
 * const { definition, diagnostics } = readWorkflow(text, { file: "review.dot" });
 * const next = selectNextEdge(definition!, "check", { outcome: "failed", context: {} });
 */
export * from "./diagnostics/diagnostic.ts";
export { WorkflowError, isWorkflowError, invalidWorkflowError, type WorkflowErrorCode } from "./errors.ts";

export { parseDot, type DotParseResult } from "./dot/parser.ts";
export type { DotGraph, DotStatement, DotAttr, DotValue, DotSubgraph, DotNodeRef } from "./dot/ast.ts";
export { tokenize } from "./dot/tokenizer.ts";
export type { Token, LiteralKind } from "./dot/tokens.ts";
export { flattenGraph, classNameOf, type FlatGraph, type FlatNode, type FlatEdge, type FlatAttr } from "./dot/flatten.ts";

export * from "./definition/schema.ts";
export { readWorkflow, type ReadWorkflowResult } from "./definition/from-dot.ts";
export { parseDotDuration } from "./definition/values.ts";
export { HANDLER_SHAPES, KNOWN_TYPES } from "./definition/handlers.ts";
export * from "./definition/builder.ts";
export { singleWorkflow, SINGLE_WORKFLOW } from "./definition/single.ts";
export { pipelineWorkflow, PIPELINE_WORKFLOW, PIPELINE_GATES, PIPELINE_DIR, SUBTASKS_FILE, type PipelineOptions, type PipelineGate } from "./pipeline/pipeline-workflow.ts";
export { parseSubtaskList, subtaskListSchema, SUBTASK_LIST_EXAMPLE, MAX_SUBTASKS, type Subtask } from "./pipeline/subtask-list.ts";

export { checkWorkflow, type CheckOptions } from "./check/check.ts";

export * from "./condition/ast.ts";
export { parseCondition, parseConditionOrThrow, type ConditionParseResult, type ConditionSyntaxProblem } from "./condition/parse.ts";
export { evaluateCondition, type ConditionInput } from "./condition/evaluate.ts";

export { selectNextEdge, type RouteDecision, type RouteInput, type RouteReason } from "./route/select-edge.ts";
export { extractRoutingSignals, type RoutingSignals } from "./route/signals.ts";
export { branchTargets, fanInOf } from "./route/fan-out.ts";

export { splitAccelerator, normalizeLabel } from "./gate/labels.ts";
export { gateChoices, matchGateAnswer, type GateChoices, type GateOption } from "./gate/options.ts";

export { expandPrompt, type PromptValues } from "./prompt/expand.ts";
export { promptFileReference, resolvePromptFile, stagePromptTemplate, type PromptFileReader } from "./prompt/files.ts";

export { parseStylesheet, type ParsedStylesheet, type StyleProblem } from "./stylesheet/parse.ts";
export { resolveNodeStyle, styleOf, type NodeStyle } from "./stylesheet/resolve.ts";
export { STYLE_PROPERTIES, specificityOf, selectorText, type StyleRule, type StyleSelector, type StyleDeclaration, type StyleProperty } from "./stylesheet/rules.ts";

export { locateWorkflow, isWorkflowPath, WORKFLOWS_DIR, WORKFLOW_EXTENSIONS, BUILTIN_WORKFLOWS, type WorkflowLocation } from "./lookup/locate.ts";
export { loadWorkflow, loadValidWorkflow, type LoadedWorkflow, type LoadOptions } from "./lookup/load.ts";

export { workflowToDot } from "./draw/to-dot.ts";
