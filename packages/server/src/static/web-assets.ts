import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serveStatic } from "@hono/node-server/serve-static";
import type { MiddlewareHandler } from "hono";
import type { ServerApp, ServerEnv } from "../http/server-app.ts";

/**
 * Where the web UI's build lands: `packages/web/dist` beside this package in the workspace, and
 * `node_modules/@baton/web/dist` beside it when installed (the server depends on `@baton/web`).
 */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL("../../../web/dist", import.meta.url));

const NOT_BUILT_PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Baton</title>
<h1>Baton</h1>
<p>The web UI is not built. In the Baton checkout, run <code>npm run build -w @baton/web</code>, then reload this page.</p>
<p>The HTTP API works without it: <code>GET /api/runs</code>, <code>GET /api/openapi.json</code>.</p>
`;

/**
 * The web UI's static files, without a token (they hold no data; the page gets the token
 * from its URL): files of `dist` by path, `index.html` for `/` and for any other GET outside
 * `/api/` (the UI routes in the browser). Without a build, a page saying how to make one.
 * Looked up per request, so a build made while the server runs is picked up.
 */
export function addWebAssets(app: ServerApp, dist: string = DEFAULT_WEB_DIST): void {
  // Made once the build exists: serveStatic complains at creation about a missing root.
  let files: MiddlewareHandler<ServerEnv> | undefined;
  let index: MiddlewareHandler<ServerEnv> | undefined;
  app.get("*", async (c, next) => {
    if (c.req.path === "/api" || c.req.path.startsWith("/api/")) return next();
    if (!existsSync(join(dist, "index.html"))) return c.html(NOT_BUILT_PAGE);
    files ??= serveStatic<ServerEnv>({ root: dist });
    index ??= serveStatic<ServerEnv>({ root: dist, path: "index.html" });
    const served = await files(c, async () => {});
    if (served instanceof Response) return served;
    return index(c, next);
  });
}
