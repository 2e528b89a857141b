// `redocly lint` (the repository's redocly.yaml: recommended-strict and the API's own rules) on
// the generated document: no error, no warning. Offline: telemetry and the update check are off.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { testTempDir } from "@baton/protocol/testing";
import { buildOpenApiDocument } from "./document.ts";

const run = promisify(execFile);
const REDOCLY = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
const CONFIG = fileURLToPath(new URL("../../../../../redocly.yaml", import.meta.url));
const OFFLINE = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };

async function lint(document: unknown): Promise<{ code: number; output: string }> {
  const file = join(await testTempDir("server-redocly-"), "openapi.json");
  await writeFile(file, JSON.stringify(document));
  try {
    const { stdout, stderr } = await run(process.execPath, [REDOCLY, "lint", "--config", CONFIG, file], { env: OFFLINE, timeout: 120_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` };
  }
}

test("redocly lint passes on the generated document with no error and no warning", async () => {
  const { code, output } = await lint(buildOpenApiDocument());
  assert.equal(code, 0, output);
  assert.match(output, /Your API description is valid/, output);
  assert.doesNotMatch(output, /warning/i, output);
});

test("redocly lint fails a document that loses an operationId and its error answers: the check can fail", async () => {
  const broken = JSON.parse(JSON.stringify(buildOpenApiDocument())) as { paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>> };
  const operation = broken.paths["/api/runs/{ref}"]?.["get"];
  assert.ok(operation !== undefined);
  delete operation.operationId;
  for (const status of Object.keys(operation.responses)) if (status.startsWith("4")) delete operation.responses[status];
  const { code, output } = await lint(broken);
  assert.notEqual(code, 0, output);
  assert.match(output, /operation-operationId/, output);
  assert.match(output, /operation-4xx-response/, output);
});
