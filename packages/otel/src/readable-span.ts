import { SpanKind, SpanStatusCode, TraceFlags, type HrTime, type SpanContext } from "@opentelemetry/api";
import { resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { definedFields } from "@baton/protocol/core";
import { GEN_AI_SCHEMA_URL } from "./gen-ai-conventions.ts";
import type { SpanRecord } from "./span-record.ts";

/** The scope every span is reported under. */
export const INSTRUMENTATION_SCOPE = { name: "@baton/otel", version: "0.1.0", schemaUrl: GEN_AI_SCHEMA_URL };

/** The resource spans are reported for: Baton, as a service. */
export function batonResource(attributes: Record<string, string> = {}): Resource {
  return resourceFromAttributes({ "service.name": "baton", ...attributes });
}

/**
 * A span Baton built from events, in the form the SDK's exporters take. Spans are never made
 * with the SDK's tracer: their times and ids come from the log, not from the clock or a random
 * source, and they are handed to the exporter directly, with no processor queue between.
 */
export function toReadableSpan(record: SpanRecord, resource: Resource): ReadableSpan {
  const context: SpanContext = { traceId: record.traceId, spanId: record.spanId, traceFlags: TraceFlags.SAMPLED };
  const parent: SpanContext | undefined = record.parentSpanId === undefined ? undefined : { traceId: record.traceId, spanId: record.parentSpanId, traceFlags: TraceFlags.SAMPLED };
  return definedFields({
    name: record.name,
    kind: record.kind === "client" ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => context,
    parentSpanContext: parent,
    startTime: hrTime(record.startMs),
    endTime: hrTime(record.endMs),
    duration: hrTime(record.endMs - record.startMs),
    status: record.status.code === "error" ? definedFields({ code: SpanStatusCode.ERROR, message: record.status.message }) : { code: record.status.code === "ok" ? SpanStatusCode.OK : SpanStatusCode.UNSET },
    attributes: record.attributes,
    links: [],
    events: record.events.map((event) => ({ name: event.name, time: hrTime(event.timeMs), attributes: event.attributes })),
    ended: true,
    resource,
    instrumentationScope: INSTRUMENTATION_SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  });
}

function hrTime(ms: number): HrTime {
  const seconds = Math.floor(ms / 1_000);
  return [seconds, Math.round((ms - seconds * 1_000) * 1_000_000)];
}
