import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildOpenApiDocument } from "./document.ts";

/** The committed OpenAPI document, published with the docs. A test fails when it drifts from the routes' schemas. */
export const OPENAPI_FILE = fileURLToPath(new URL("../../../../../docs/openapi.json", import.meta.url));

/** The command that rewrites it, quoted by the drift test. */
export const WRITE_OPENAPI_COMMAND = "node packages/server/src/api/contract/write-openapi.ts";

/** The document exactly as committed: two-space indent, trailing newline. */
export function renderOpenApi(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

if (import.meta.main) {
  await writeFile(OPENAPI_FILE, renderOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
