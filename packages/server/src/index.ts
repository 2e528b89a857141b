/** `baton serve`: the HTTP API, its resumable SSE streams, and the web UI's files. */
export { createApp, apiMethods, DEFAULT_STREAM_LIMITS, type AppOptions, type StreamLimits } from "./app.ts";
export { startServer, newToken, SERVE_FILE, type ServeOptions, type ServeInfo, type RunningServer } from "./serve/start-server.ts";
export { isLoopbackHost } from "./serve/loopback.ts";
export { buildOpenApiDocument } from "./api/contract/document.ts";
export { DEFAULT_WEB_DIST } from "./static/web-assets.ts";
export type { StreamHooks } from "./stream/hub-registry.ts";
export type { LiveWriter, LiveWriters } from "./stream/sources.ts";
