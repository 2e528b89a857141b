import type { HttpBindings } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context } from "hono";
import type { RunStore } from "@baton/engine/store";
import { isFinalStatus } from "@baton/protocol/core";
import { feedStreamRoute, runStreamRoute } from "../api/contract/streams.ts";
import { resolveFresh } from "../api/resolve.ts";
import type { ServerApp } from "../http/server-app.ts";
import type { HubRegistry } from "./hub-registry.ts";
import { feedSource, runSource, type LiveWriters } from "./sources.ts";
import { responseSink } from "./sse-sink.ts";
import { StreamClient } from "./stream-client.ts";
import type { StreamSource } from "./stream-source.ts";

export type StreamTimings = {
  /** Interval of `: ping` comments on a quiet stream. */
  heartbeatMs: number;
  /** How long a dropped client has to take its `resync` before its socket is destroyed. */
  dropGraceMs: number;
};

export type StreamRoutesOptions = { store: RunStore; hubs: HubRegistry; liveWriters?: LiveWriters | undefined; timings: StreamTimings };

const FEED_KEY = "feed";

/**
 * The resumable SSE streams: a run's events by seq (ends after its final event) and the
 * cross-run feed by pos (never ends). The cursor comes from `Last-Event-ID` (what a browser's
 * EventSource sends when it reconnects), else `?after=`.
 */
export function addStreamRoutes(app: ServerApp, options: StreamRoutesOptions): void {
  const { store } = options;

  app.openapi(runStreamRoute, async (c) => {
    const after = cursorOf(c.req.valid("header")["last-event-id"], c.req.valid("query").after);
    const run = await resolveFresh(store, c.req.valid("param").ref);
    // The client has the final event: 204 tells an EventSource to stop reconnecting.
    if (isFinalStatus(run.status) && after >= run.last_seq) return c.body(null, 204);
    return sse(c, options, run.id, () => runSource(store, run.id, options.liveWriters), after);
  });

  app.openapi(feedStreamRoute, (c) => sse(c, options, FEED_KEY, () => feedSource(store), cursorOf(c.req.valid("header")["last-event-id"], c.req.valid("query").after)));
}

/** The header wins: it is what the client really received, `after` is where the page started. */
function cursorOf(header: number | undefined, after: number | undefined): number {
  return header ?? after ?? 0;
}

/**
 * Streams on Node's response object directly (see `responseSink`), not through a `Response`
 * body: the handler starts the client and tells the Node adapter the response is its own.
 */
function sse(c: Context<{ Bindings: HttpBindings }>, options: StreamRoutesOptions, key: string, source: () => StreamSource, after: number): Response {
  const { hubs, timings } = options;
  const response = (c.env as HttpBindings | undefined)?.outgoing;
  if (response === undefined) throw new Error("SSE streams are served by the Node server (startServer), not app.request()");
  const streamSource = source();
  const client = new StreamClient({
    sink: responseSink(response),
    source: streamSource,
    hub: () => hubs.hub(key, () => streamSource),
    after,
    heartbeatMs: timings.heartbeatMs,
    dropGraceMs: timings.dropGraceMs,
    onDrop: (cursor) => hubs.hooks.clientDropped?.(key, cursor),
    onCutOff: () => hubs.hooks.clientCutOff?.(key),
  });
  client.start();
  return RESPONSE_ALREADY_SENT;
}
