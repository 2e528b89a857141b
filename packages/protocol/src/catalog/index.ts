import { z } from "zod";
import { envelopeSchema } from "../envelope.ts";
import * as agent from "./agent.ts";
import * as run from "./run.ts";
import type { EventDefinition } from "./shared.ts";
import * as workspace from "./workspace.ts";

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
  workspace.workspaceReady,
  workspace.fileChanged,
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

/** Ephemeral events carry no seq and are never written to a log. */
export function isEphemeralType(type: string): boolean {
  return byType.get(type)?.ephemeral ?? false;
}

/** The events that end a run's active life. Every `run.started` is followed by exactly one. */
export const TERMINAL_TYPES = ["run.paused", "run.completed", "run.failed", "run.cancelled"] as const;
/** Terminal events after which nothing more is ever appended to the run. */
export const FINAL_TYPES = ["run.completed", "run.failed", "run.cancelled"] as const;

export function isTerminalType(type: string): boolean {
  return (TERMINAL_TYPES as readonly string[]).includes(type);
}

export function isFinalType(type: string): boolean {
  return (FINAL_TYPES as readonly string[]).includes(type);
}
