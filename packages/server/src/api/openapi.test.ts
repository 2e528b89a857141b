import assert from "node:assert/strict";
import { test } from "node:test";
import { apiRoutes } from "../app.ts";
import { AUTH, makeProject, testApp } from "../testing/server-fixtures.ts";
import { OPENAPI_DOCUMENT } from "./openapi.ts";

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");

test("every API route the app registers is in the OpenAPI document, and nothing else", async (t) => {
  const project = await makeProject("server-openapi-");
  t.after(() => project.store.close());
  const { app } = testApp(project.store, project.root);
  const registered = new Set(
    app.routes.filter((route) => route.path.startsWith("/api/") && route.path !== "/api/*" && route.method !== "ALL").map((route) => `${route.method} ${toOpenApiPath(route.path)}`),
  );
  const documented = new Set(
    Object.entries(OPENAPI_DOCUMENT.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`)),
  );
  assert.deepEqual([...registered].sort(), [...documented].sort());
  const declared = Object.entries(apiRoutes()).flatMap(([path, methods]) => methods.map((method) => `${method} ${toOpenApiPath(path)}`));
  assert.deepEqual(declared.sort(), [...documented].sort(), "the 405 table matches too");
  const served = await app.request("/api/openapi.json", { headers: AUTH });
  assert.equal(served.status, 200);
  assert.equal(((await served.json()) as { openapi: string }).openapi, "3.1.0");
});

test("every operation documents its parameters' path names and a 2xx response", () => {
  for (const [path, item] of Object.entries(OPENAPI_DOCUMENT.paths)) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, operation] of Object.entries(item) as Array<[string, { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> }]>) {
      const inPath = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
      assert.deepEqual(inPath.sort(), names.sort(), `${method} ${path}`);
      assert.ok(Object.keys(operation.responses).some((status) => status.startsWith("2")), `${method} ${path}`);
    }
  }
});
