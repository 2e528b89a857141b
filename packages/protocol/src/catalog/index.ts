import { z } from "zod";
import { envelopeSchema } from "../envelope.ts";
import * as agent from "./agent.ts";
import * as compaction from "./compaction.ts";
import * as delivery from "./delivery.ts";
import * as dispatch from "./dispatch.ts";
import * as limits from "./limits.ts";
import * as people from "./people.ts";
import * as proxy from "./proxy.ts";
import * as run from "./run.ts";
import type { EventDefinition } from "./shared.ts";
import * as workflow from "./workflow.ts";
import * as workspace from "./workspace.ts";

export { limitNameSchema, providerErrorClassSchema } from "./limits.ts";
export { inputRejectionSchema, questionFieldSchema, questionValueSchema } from "./people.ts";
export { stageOutcomeSchema, stageHandlerSchema, failureClassSchema } from "./workflow.ts";
export { mergeStrategySchema } from "./delivery.ts";
export { usageSchema, errorInfoSchema, type Usage, type ErrorInfo } from "./shared.ts";

/** Every event type of protocol v1, in catalog order. */
export const catalog = [
  run.runCreated,
  run.runStarted,
  run.runPaused,
  run.runCompleted,
  run.runFailed,
  run.runCancelled,
  run.log,
  dispatch.workerLost,
  workspace.workspaceReady,
  workspace.fileChanged,
  workspace.gitCommitted,
  agent.agentStarted,
  agent.turnStarted,
  agent.agentDelta,
  agent.agentMessage,
  agent.agentThought,
  agent.toolStarted,
  agent.toolCompleted,
  agent.planUpdated,
  agent.permissionRequested,
  agent.permissionResolved,
  agent.usageUpdated,
  agent.turnCompleted,
  agent.agentFinished,
  agent.runnerEvent,
  compaction.agentCompacted,
  limits.budgetUpdated,
  limits.limitWarning,
  limits.limitReached,
  limits.providerError,
  limits.retryScheduled,
  limits.modelSwitched,
  limits.stallDetected,
  limits.repeatDetected,
  limits.handbackRequested,
  people.inputQueued,
  people.inputDelivered,
  people.inputRejected,
  people.questionAsked,
  people.questionAnswered,
  proxy.modelRequestCompleted,
  proxy.modelRequestRefused,
  workflow.workflowLoaded,
  workflow.stageStarted,
  workflow.stageCompleted,
  workflow.stageFailed,
  workflow.stageRetrying,
  workflow.routeSelected,
  workflow.contextUpdated,
  workflow.checkpointSaved,
  workflow.parallelStarted,
  workflow.branchStarted,
  workflow.branchCompleted,
  workflow.parallelCompleted,
  workflow.integrationCompleted,
  workflow.integrationConflicted,
  workflow.approvalRequested,
  workflow.approvalResolved,
  workflow.waitStarted,
  delivery.setupStarted,
  delivery.setupCommandCompleted,
  delivery.setupCompleted,
  delivery.setupFailed,
  delivery.validationCompleted,
  delivery.validationFixRequested,
  delivery.gitMerged,
  delivery.mergeConflicted,
  delivery.gitPushed,
  delivery.pullRequestCreated,
  delivery.pullRequestFailed,
  delivery.artifactCaptured,
  delivery.artefactWritten,
  delivery.subtaskUpdated,
  delivery.subtaskIntegrated,
] as const;

type Catalog = typeof catalog;
type Definition = Catalog[number];

/** The envelope of one catalog type: its `type` fixed, its `data` checked. */
function typedEnvelope<T extends string, D extends z.ZodType>(def: EventDefinition<T, D>) {
  return envelopeSchema.extend({ type: z.literal(def.type), data: def.data }).describe(def.description);
}

type TypedEnvelopeSchema<Def> = Def extends EventDefinition<infer T, infer D> ? ReturnType<typeof typedEnvelope<T, D>> : never;

type TypedEnvelopeSchemas<T extends readonly unknown[]> = { -readonly [K in keyof T]: TypedEnvelopeSchema<T[K]> };

const typedSchemas = catalog.map((def) =>
  typedEnvelope(def as EventDefinition<string, z.ZodType>),
) as unknown as TypedEnvelopeSchemas<Catalog>;

/** A known event: the discriminated union of every catalog type's envelope. */
export const eventSchema = z.discriminatedUnion("type", typedSchemas);

export type BatonEvent = z.infer<typeof eventSchema>;
export type EventType = Definition["type"];
export type EventOfType<T extends EventType> = Extract<BatonEvent, { type: T }>;
export type EventData<T extends EventType> = EventOfType<T>["data"];

const byType = new Map<string, Definition>(catalog.map((def) => [def.type, def]));

/** The catalog entry of a type, or undefined for a type this version does not know. */
export function definitionOf(type: string): Definition | undefined {
  return byType.get(type);
}

export {
  TERMINAL_TYPES,
  FINAL_TYPES,
  EPHEMERAL_TYPES,
  EVENT_TYPES,
  FINAL_STATUSES,
  isKnownType,
  isTerminalType,
  isFinalType,
  isEphemeralType,
  isFinalStatus,
} from "../core/event-types.ts";
