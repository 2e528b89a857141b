// The OpenAPI 3.1 document of the API, generated from the routes' schemas: the validators are
// the description, so the two cannot drift apart.

import { OpenAPIHono, type RouteConfig } from "@hono/zod-openapi";
import type { Env } from "hono";
import { answerRoute, approveRoute, rejectRoute } from "./gates.ts";
import { allowRoute, denyRoute, replyRoute, sendInputRoute } from "./people.ts";
import { cancelRunRoute, getOutputRoute, getRunRoute, listEventsRoute, listRunsRoute, startRunRoute } from "./runs.ts";
import { feedStreamRoute, openApiRoute, runStreamRoute } from "./streams.ts";
import { getArtifactRoute, listArtifactsRoute, overviewRoute, runDiffRoute } from "./views.ts";

/** Every route of the API, in the document's order. The app registers each (a test checks it serves exactly these). */
export const API_ROUTES: readonly RouteConfig[] = [
  listRunsRoute,
  startRunRoute,
  getRunRoute,
  listEventsRoute,
  runStreamRoute,
  getOutputRoute,
  listArtifactsRoute,
  getArtifactRoute,
  runDiffRoute,
  cancelRunRoute,
  approveRoute,
  rejectRoute,
  answerRoute,
  sendInputRoute,
  allowRoute,
  denyRoute,
  replyRoute,
  overviewRoute,
  feedStreamRoute,
  openApiRoute,
];

const DOCUMENT_CONFIG = {
  openapi: "3.1.0",
  info: {
    title: "Baton HTTP API",
    version: "1",
    description:
      "`baton serve`: runs and their durable event streams. Every /api route needs the server's token: `Authorization: Bearer T` or `?token=T` (the URL `baton serve` prints has it; so does `.baton/serve.json`). Requests whose Host header is not the server's are refused (403).",
    license: { name: "Apache-2.0", identifier: "Apache-2.0" },
  },
  servers: [
    {
      url: "http://{host}:{port}",
      description: "a `baton serve` (by default on 127.0.0.1:7317; `--host` and `--port` change it)",
      variables: { host: { default: "127.0.0.1" }, port: { default: "7317" } },
    },
  ],
  security: [{ bearer: [] as string[] }, { queryToken: [] as string[] }],
} as const;

/** The document of the routes an app has registered with `app.openapi`. */
export function documentOf<E extends Env>(app: OpenAPIHono<E>): ReturnType<OpenAPIHono["getOpenAPI31Document"]> {
  app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer", description: "the server's token" });
  app.openAPIRegistry.registerComponent("securitySchemes", "queryToken", { type: "apiKey", in: "query", name: "token", description: "the server's token, for clients that cannot set headers (EventSource)" });
  return app.getOpenAPI31Document({ ...DOCUMENT_CONFIG, servers: [...DOCUMENT_CONFIG.servers], security: [...DOCUMENT_CONFIG.security] });
}

/** The document of `API_ROUTES`, without an app: what `docs/openapi.json` holds. */
export function buildOpenApiDocument(): ReturnType<typeof documentOf> {
  const app = new OpenAPIHono();
  // As `app.openapi` registers a route: its middleware is the app's, not the document's.
  for (const { middleware: _middleware, ...route } of API_ROUTES) app.openAPIRegistry.registerPath(route);
  return documentOf(app);
}
