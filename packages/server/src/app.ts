import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { RunStore } from "@baton/engine/store";
import { MAX_BODY_BYTES } from "./api/json-body.ts";
import { documentOf } from "./api/contract/document.ts";
import { openApiRoute } from "./api/contract/streams.ts";
import { validationHook } from "./api/contract/validation-hook.ts";
import { addArtifactsRoutes } from "./api/artifacts-routes.ts";
import { addDiffRoutes } from "./api/diff-routes.ts";
import { addOverviewRoutes } from "./api/overview-routes.ts";
import { addGateRoutes } from "./api/gate-routes.ts";
import { addPeopleRoutes } from "./api/people-routes.ts";
import { addRunsRoutes } from "./api/runs-routes.ts";
import { apiError, errorBody, errorResponse } from "./http/api-errors.ts";
import { hostGuard } from "./http/host-guard.ts";
import type { ServerApp, ServerEnv } from "./http/server-app.ts";
import { tokenAuth } from "./http/token-auth.ts";
import { addWebAssets } from "./static/web-assets.ts";
import { HubRegistry, type StreamHooks } from "./stream/hub-registry.ts";
import type { LiveWriters } from "./stream/sources.ts";
import { addStreamRoutes } from "./stream/stream-routes.ts";

export type AppOptions = {
  store: RunStore;
  /** The project's root (the git repository holding `.baton/`): where started runs run. */
  projectRoot: string;
  /** The bearer token every /api route requires. */
  token: string;
  /** Host names allowed in the Host header besides the loopback names (the bound host, --allow-host). */
  allowedHosts?: readonly string[];
  /** The web UI's build (default: packages/web/dist). */
  webDist?: string;
  /** The `baton` launcher that `POST /api/runs` starts (packages/cli/bin/baton.js). */
  cliEntry: string;
  /** The environment of started runs (default: this process's). */
  runEnv?: NodeJS.ProcessEnv;
  startTimeoutMs?: number;
  /** Writers of runs written by this process: their ephemeral events reach the streams. */
  liveWriters?: LiveWriters;
  stream?: Partial<StreamLimits>;
  hooks?: StreamHooks;
};

export type StreamLimits = {
  /** `: ping` interval on a quiet stream. */
  heartbeatMs: number;
  /** A dropped client's time to take its `resync` before its socket is destroyed. */
  dropGraceMs: number;
  /** Events (and bytes) a hub keeps: how far a client may lag before it is resynced. */
  ringEvents: number;
  ringBytes: number;
};

export const DEFAULT_STREAM_LIMITS: StreamLimits = {
  heartbeatMs: 15_000,
  dropGraceMs: 10_000,
  // ~2-4 MiB of typical events per followed run, shared by all of its clients.
  ringEvents: 8192,
  ringBytes: 8 * 1024 * 1024,
};

/** Default wait for a started (or resumed) run's first event: the CLI's start on a loaded machine. */
const START_TIMEOUT_MS = 30_000;

/**
 * The `baton serve` application: the Host check on everything, the token on /api, the REST
 * routes, the SSE streams (with their hubs), and the web UI's files. `hubs` is returned for
 * shutdown and inspection.
 *
 * @example
 * const { app } = createApp({ store, projectRoot, token, cliEntry });
 * const res = await app.request("/api/runs", { headers: { authorization: `Bearer ${token}` } });
 */
export function createApp(options: AppOptions): { app: ServerApp; hubs: HubRegistry } {
  const limits = { ...DEFAULT_STREAM_LIMITS, ...options.stream };
  const hubs = new HubRegistry({ ringEvents: limits.ringEvents, ringBytes: limits.ringBytes }, options.hooks);
  const app = new OpenAPIHono<ServerEnv>({ defaultHook: validationHook });
  app.onError(errorResponse);
  app.notFound((c) => c.json(errorBody("not_found", `no route ${c.req.method} ${c.req.path}`, "the API is described at /api/openapi.json"), 404));
  app.use("*", hostGuard(options.allowedHosts ?? []));
  app.use("/api/*", tokenAuth(options.token));
  app.use(
    "/api/*",
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => Promise.reject(apiError("payload_too_large", `the body is larger than ${MAX_BODY_BYTES} bytes`)) }),
  );

  let document: ReturnType<typeof documentOf> | undefined;
  app.openapi(openApiRoute, (c) => c.json((document ??= documentOf(app)), 200));
  const start = {
    projectRoot: options.projectRoot,
    batonDir: options.store.batonDir,
    cliEntry: options.cliEntry,
    env: options.runEnv ?? process.env,
    timeoutMs: options.startTimeoutMs ?? START_TIMEOUT_MS,
  };
  addRunsRoutes(app, { store: options.store, start });
  addGateRoutes(app, { store: options.store, start });
  addPeopleRoutes(app, { store: options.store });
  addArtifactsRoutes(app, { store: options.store });
  addDiffRoutes(app, { store: options.store, projectRoot: options.projectRoot });
  addOverviewRoutes(app, { store: options.store });
  addStreamRoutes(app, { store: options.store, hubs, liveWriters: options.liveWriters, timings: limits });
  for (const [path, methods] of Object.entries(apiMethods(app))) {
    app.all(path, (c) => {
      c.header("Allow", methods.join(", "));
      return c.json(errorBody("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}`, `allowed: ${methods.join(", ")}`), 405);
    });
  }
  app.all("/api/*", (c) => c.json(errorBody("not_found", `no route ${c.req.method} ${c.req.path}`, "the API is described at /api/openapi.json"), 404));
  addWebAssets(app, options.webDist);
  return { app, hubs };
}

/** The API's routes (hono's `:param` form) and the methods each takes, from the routes declared with their schemas: the 405 answers. */
export function apiMethods(app: ServerApp): Record<string, string[]> {
  const methods: Record<string, string[]> = {};
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== "route") continue;
    const path = definition.route.path.replace(/\{(\w+)\}/g, ":$1");
    (methods[path] ??= []).push(definition.route.method.toUpperCase());
  }
  return methods;
}
