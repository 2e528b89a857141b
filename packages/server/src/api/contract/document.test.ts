import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { catalog } from "@baton/protocol";
import { apiMethods } from "../../app.ts";
import { AUTH, makeProject, testApp } from "../../testing/server-fixtures.ts";
import { eventComponentName } from "./components.ts";
import { buildOpenApiDocument } from "./document.ts";
import { OPENAPI_FILE, renderOpenApi, WRITE_OPENAPI_COMMAND } from "./write-openapi.ts";

type Operation = {
  operationId?: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};

const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z]+)/g, "{$1}");
const document = buildOpenApiDocument();
const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
  Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({ path, method, operation })),
);

test("the app serves exactly the documented operations, its 405 answers name their methods, and /api/openapi.json is the document", async (t) => {
  const project = await makeProject("server-openapi-");
  t.after(() => project.store.close());
  const { app } = testApp(project.store, project.root);
  const registered = app.routes.filter((route) => route.path.startsWith("/api/") && route.path !== "/api/*" && route.method !== "ALL").map((route) => `${route.method} ${toOpenApiPath(route.path)}`);
  const documented = operations.map(({ path, method }) => `${method.toUpperCase()} ${path}`);
  assert.deepEqual([...new Set(registered)].sort(), documented.sort());
  const allowed = Object.entries(apiMethods(app)).flatMap(([path, methods]) => methods.map((method) => `${method} ${toOpenApiPath(path)}`));
  assert.deepEqual(allowed.sort(), documented.sort(), "the 405 table matches too");
  const served = await app.request("/api/openapi.json", { headers: AUTH });
  assert.equal(served.status, 200);
  assert.deepEqual(await served.json(), JSON.parse(JSON.stringify(document)));
  const wrongMethod = await app.request("/api/runs/1/cancel", { headers: AUTH });
  assert.equal(wrongMethod.status, 405);
  assert.equal(wrongMethod.headers.get("allow"), "POST");
});

test("the committed docs/openapi.json is the document the routes' schemas generate", async () => {
  const committed = await readFile(OPENAPI_FILE, "utf8").catch(() => "(missing)");
  assert.ok(committed === renderOpenApi(), `docs/openapi.json is out of date with the routes: run \`${WRITE_OPENAPI_COMMAND}\` and commit the result`);
});

test("the document is OpenAPI 3.1 with servers, bearer and query-token security, and a unique operationId per operation", () => {
  assert.equal(document.openapi, "3.1.0");
  assert.ok((document.servers ?? []).length > 0);
  assert.deepEqual(Object.keys(document.components?.securitySchemes ?? {}).sort(), ["bearer", "queryToken"]);
  const ids = operations.map(({ operation }) => operation.operationId);
  assert.ok(ids.every((id) => typeof id === "string" && /^[a-z][A-Za-z]+$/.test(id)), JSON.stringify(ids));
  assert.equal(new Set(ids).size, ids.length);
});

test("every operation documents its path parameters, a 2xx answer, and each error status it can answer with the error schema", () => {
  for (const { path, method, operation } of operations) {
    const label = `${method} ${path}`;
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const inPath = (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
    assert.deepEqual(inPath.sort(), names.sort(), label);
    const statuses = Object.keys(operation.responses);
    assert.ok(statuses.some((status) => status.startsWith("2")), label);
    const expected = ["401", "403", "405", "500"];
    if (operation.parameters !== undefined || operation.requestBody !== undefined) expected.push("400");
    if (names.includes("ref")) expected.push("404");
    if (operation.requestBody !== undefined) expected.push("413", "415");
    for (const status of expected) assert.ok(statuses.includes(status), `${label} documents ${status}`);
    for (const status of statuses.filter((s) => /^[45]/.test(s))) {
      assert.deepEqual(operation.responses[status]?.content, { "application/json": { schema: { $ref: "#/components/schemas/Error" } } }, `${label} ${status}`);
    }
  }
});

test("every response has one schema per media type, and the streams are text/event-stream", () => {
  for (const { path, method, operation } of operations) {
    for (const [status, response] of Object.entries(operation.responses)) {
      for (const [type, media] of Object.entries(response.content ?? {})) assert.ok(media.schema !== undefined && !type.includes(","), `${method} ${path} ${status} ${type}`);
    }
  }
  for (const path of ["/api/runs/{ref}/stream", "/api/stream"]) {
    const operation = (document.paths?.[path] as Record<string, Operation>)["get"];
    assert.deepEqual(Object.keys(operation?.responses["200"]?.content ?? {}), ["text/event-stream"], path);
  }
});

test("the Event schema is the catalog's: one component per type, discriminated by type, each with that type's data", () => {
  const schemas = document.components?.schemas ?? {};
  const event = schemas["Event"] as { oneOf: Array<{ $ref: string }>; discriminator: { propertyName: string; mapping: Record<string, string> } };
  assert.equal(event.discriminator.propertyName, "type");
  assert.deepEqual(Object.keys(event.discriminator.mapping).sort(), catalog.map((def) => def.type).sort());
  for (const def of catalog) {
    const name = eventComponentName(def.type);
    assert.equal(event.discriminator.mapping[def.type], `#/components/schemas/${name}`);
    const component = schemas[name] as { properties: { type: { enum: string[] }; data: { required?: string[] } } };
    assert.deepEqual(component.properties.type.enum, [def.type], name);
    const required = Object.entries((def.data as unknown as { shape?: Record<string, { safeParse: (v: unknown) => { success: boolean } }> }).shape ?? {})
      .filter(([, field]) => !field.safeParse(undefined).success)
      .map(([key]) => key);
    assert.deepEqual([...(component.properties.data.required ?? [])].sort(), required.sort(), name);
  }
  const listed = ((document.paths?.["/api/runs/{ref}/events"] as Record<string, Operation>)["get"]?.responses["200"]?.content?.["application/json"]?.schema ?? {}) as { properties?: { events?: { items?: unknown } } };
  assert.deepEqual(listed.properties?.events?.items, { $ref: "#/components/schemas/Event" });
});
