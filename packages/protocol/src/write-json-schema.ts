import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildJsonSchema } from "./json-schema.ts";

/** The committed JSON Schema, published with the docs. A test fails when it drifts from the code. */
export const JSON_SCHEMA_FILE = fileURLToPath(new URL("../../../docs/schema/events.v1.json", import.meta.url));

/** The command that rewrites it, quoted by the drift test. */
export const WRITE_JSON_SCHEMA_COMMAND = "node packages/protocol/src/write-json-schema.ts";

/** The schema exactly as committed: two-space indent, trailing newline. */
export function renderJsonSchema(): string {
  return `${JSON.stringify(buildJsonSchema(), null, 2)}\n`;
}

if (import.meta.main) {
  await writeFile(JSON_SCHEMA_FILE, renderJsonSchema());
  console.log(`wrote ${JSON_SCHEMA_FILE}`);
}
