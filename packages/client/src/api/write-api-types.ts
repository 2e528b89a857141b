import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

/** The API's OpenAPI document, as the server generates it from its routes' schemas. */
export const OPENAPI_FILE = fileURLToPath(new URL("../../../../docs/openapi.json", import.meta.url));
/** The client's types of the API, generated from that document by openapi-typescript. */
export const API_TYPES_FILE = fileURLToPath(new URL("./api-types.ts", import.meta.url));

/** The command that rewrites them, quoted by the drift test. */
export const WRITE_API_TYPES_COMMAND = "node packages/client/src/api/write-api-types.ts";

/** The types exactly as committed. */
export async function renderApiTypes(): Promise<string> {
  const document = JSON.parse(await readFile(OPENAPI_FILE, "utf8")) as Parameters<typeof openapiTS>[0];
  return `// Generated from docs/openapi.json by openapi-typescript: do not edit. \`${WRITE_API_TYPES_COMMAND}\` rewrites it.\n${astToString(await openapiTS(document))}`;
}

if (import.meta.main) {
  await writeFile(API_TYPES_FILE, await renderApiTypes());
  console.log(`wrote ${API_TYPES_FILE}`);
}
