import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { Store } from "@baton/engine/store";
import { isFinalStatus } from "@baton/protocol/core";
import { parseCursor } from "../api/params.ts";
import { resolveFresh } from "../api/resolve.ts";
import type { ServerApp } from "../http/server-app.ts";
import type { HubRegistry } from "./hub-registry.ts";
import { feedSource, runSource, type LiveWriters } from "./sources.ts";
import { StreamClient } from "./stream-client.ts";
import type { StreamSource } from "./stream-source.ts";

export type StreamTimings = {
  /** Interval of `: ping` comments on a quiet stream. */
  heartbeatMs: number;
  /** How long a dropped client has to take its `resync` before its socket is destroyed. */
  dropGraceMs: number;
};

export type StreamRoutesOptions = { store: Store; hubs: HubRegistry; liveWriters?: LiveWriters | undefined; timings: StreamTimings };

const FEED_KEY = "feed";

/**
 * The resumable SSE streams: a run's events by seq (ends after its final event) and the
 * cross-run feed by pos (never ends). The cursor comes from `Last-Event-ID` (what a browser's
 * EventSource sends when it reconnects), else `?after=`.
 */
export function addStreamRoutes(app: ServerApp, options: StreamRoutesOptions): void {
  const { store } = options;

  app.get("/api/runs/:ref/stream", async (c) => {
    const after = cursorOf(c);
    const run = await resolveFresh(store, c.req.param("ref"));
    // The client has the final event: 204 tells an EventSource to stop reconnecting.
    if (isFinalStatus(run.status) && after >= run.last_seq) return c.body(null, 204);
    return sse(c, options, run.id, () => runSource(store, run.id, options.liveWriters), after);
  });

  app.get("/api/stream", (c) => sse(c, options, FEED_KEY, () => feedSource(store), cursorOf(c)));
}

function cursorOf(c: Context): number {
  const header = c.req.header("last-event-id");
  // The header wins: it is what the client really received, `after` is where the page started.
  if (header !== undefined && header.trim() !== "") return parseCursor(header.trim(), "Last-Event-ID") as number;
  return parseCursor(c.req.query("after"), "after") ?? 0;
}

function sse(c: Context<{ Bindings: HttpBindings }>, options: StreamRoutesOptions, key: string, source: () => StreamSource, after: number): Response {
  const { hubs, timings } = options;
  const streamSource = source();
  // Proxies (nginx) buffer responses unless told not to; a stream must flow.
  c.header("X-Accel-Buffering", "no");
  return streamSSE(c, async (stream) => {
    const client = new StreamClient({
      sink: stream,
      source: streamSource,
      hub: () => hubs.hub(key, () => streamSource),
      after,
      heartbeatMs: timings.heartbeatMs,
      dropGraceMs: timings.dropGraceMs,
      destroy: () => {
        (c.env as HttpBindings | undefined)?.outgoing?.destroy();
        // Explicitly: once closed, hono's stream no longer aborts itself when the socket goes,
        // and the write in flight would wait forever.
        stream.abort();
        hubs.hooks.clientCutOff?.(key);
      },
      onDrop: (cursor) => hubs.hooks.clientDropped?.(key, cursor),
    });
    await client.run();
  });
}
