// The named schemas of the API's answers (the document's components). The events are the
// protocol's own zod schemas, one component per catalog type, joined by `type`.

import { z } from "@hono/zod-openapi";
import { eventSchema, type BatonEvent } from "@baton/protocol";
import { definedFields, type Envelope } from "@baton/protocol/core";
import { RUN_STATUSES } from "../params.ts";

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ description: "what went wrong, for programs: not_found, run_not_found, invalid_ref, not_paused, …", example: "run_not_found" }),
      message: z.string().openapi({ description: "what went wrong, for people: one line" }),
      hint: z.string().optional().openapi({ description: "how to fix it, when the server knows" }),
    }),
  })
  .openapi("Error", { description: "Every error the API answers: its code, a one-line message, and a hint when there is one." });

export const runStatusSchema = z.enum(RUN_STATUSES).openapi("RunStatus");

export const runSummarySchema = z
  .object({
    id: z.string(),
    number: z.number().int().min(1),
    status: runStatusSchema,
    task: z.string().optional(),
    agent: z.string().optional(),
    model: z.string().optional(),
    created_at: z.string().optional(),
    started_at: z.string().optional(),
    ended_at: z.string().optional(),
    pid: z.number().int().optional().openapi({ description: "the process that last started (or resumed) the run" }),
    last_seq: z.number().int().min(0).openapi({ description: "seq of the run's last durable event" }),
    committed_bytes: z.number().int().min(0).openapi({ description: "bytes of the log that are durable and indexed" }),
  })
  .openapi("RunSummary", { description: "A run as the catalog knows it: what `baton runs` lists." });

/** `run.created` → `RunCreatedEvent`, `log` → `LogEvent`. */
export function eventComponentName(type: string): string {
  return `${type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("")}Event`;
}

/**
 * One event: the protocol's discriminated union of every catalog type's envelope (its `type`
 * fixed, its `data` that type's schema), each type a component of its own.
 */
export const eventEnvelopeSchema = z
  .discriminatedUnion(
    "type",
    // A new object of each option's own shape: the protocol's schemas may have been made
    // before zod was extended with `.openapi`, and are not changed here.
    eventSchema.options.map((option) =>
      z.looseObject(option.shape).openapi(eventComponentName(option.shape.type.value), definedFields({ description: option.description })),
    ) as unknown as typeof eventSchema.options,
  )
  .openapi("Event", {
    description:
      "An event envelope (docs/schema/events.v1.json), discriminated by `type`. On the feed it also has `pos` and `number`. An event over the size cap has the truncation marker as its data ({truncated, original_bytes, limit_bytes}); a later protocol version may add types and fields.",
  });

/**
 * The store's events as the catalog types them: each was written through the engine's typed
 * writer (its `data` of its type's schema), so this names them, it does not check them. The
 * one exception, the truncation marker of an event over the size cap, the Event schema's
 * description names.
 */
export function asCatalogEvents(events: Envelope[]): BatonEvent[] {
  return events as unknown as BatonEvent[];
}
