// The contract of the resumable SSE streams (stream/stream-routes.ts) and of this document.

import { createRoute, z } from "@hono/zod-openapi";
import { cursorField, lastEventIdHeader, refParam } from "./fields.ts";
import { errorResponses, json } from "./responses.ts";

const SSE_DESCRIPTION = [
  "Server-sent events. First `retry: 2000`. Each durable event: `id: <cursor>` and `data: <Event JSON>` (event name `message`; see the Event schema).",
  "Ephemeral events (`agent.delta`, runs written by the server's own process only) have no id.",
  "`: ping` comments keep a quiet stream open. A client that falls too far behind gets `event: resync` with `data: {\"after\": N}`",
  "and is disconnected: reconnect with Last-Event-ID N to get the rest.",
].join(" ");

const eventStream = (description: string) => ({
  description,
  content: { "text/event-stream": { schema: { type: "string" as const, description: "SSE frames; each `data:` is one Event (JSON)" } } },
});

const cursorHeaders = z.object({ "last-event-id": lastEventIdHeader });

export const runStreamRoute = createRoute({
  method: "get",
  path: "/api/runs/{ref}/stream",
  operationId: "followRun",
  summary: "A run's events, live (SSE, id = seq); ends after the run's final event",
  description: SSE_DESCRIPTION,
  request: { params: z.object({ ref: refParam }), query: z.object({ after: cursorField("after", "only events after this seq").optional() }), headers: cursorHeaders },
  responses: {
    200: eventStream("the stream"),
    204: { description: "the run has ended and the client has its final event" },
    ...errorResponses([400, 404]),
  },
});

export const feedStreamRoute = createRoute({
  method: "get",
  path: "/api/stream",
  operationId: "followFeed",
  summary: "The cross-run feed, live (SSE, id = pos); never ends",
  description: `${SSE_DESCRIPTION} Envelopes carry pos and number.`,
  request: { query: z.object({ after: cursorField("after", "only events after this feed position").optional() }), headers: cursorHeaders },
  responses: { 200: eventStream("the stream"), ...errorResponses([400]) },
});

export const openApiRoute = createRoute({
  method: "get",
  path: "/api/openapi.json",
  operationId: "getOpenApiDocument",
  summary: "This document",
  responses: { 200: { description: "OpenAPI 3.1", content: json(z.record(z.string(), z.unknown())) }, ...errorResponses([]) },
});
