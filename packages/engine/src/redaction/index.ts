/** @baton/engine/redaction: the secrets Baton keeps out of logs, files and messages, and their redactors. */
export { Redactor, StreamRedactor, REDACTED } from "./redactor.ts";
export { secretsFromEnv } from "./secrets.ts";
export { mcpSecrets } from "../config/mcp-config.ts";
