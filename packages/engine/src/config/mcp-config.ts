import { z } from "zod";

const name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, "MCP server names are letters, digits, ., - and _");

/** One `[[mcp.servers]]`: a command Baton's agents start (stdio), or a server they reach over HTTP. */
export const mcpServerSchema = z.union([
  z.strictObject({
    name,
    /** An absolute path (ACP asks for one). */
    command: z.string().regex(/^\//, "must be an absolute path"),
    args: z.array(z.string()).default([]),
    /** Its environment's values are secrets: redacted from every log. */
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string()).default({}),
  }),
  z.strictObject({
    name,
    /** A streamable-HTTP MCP server. */
    url: z.url({ protocol: /^https?$/ }),
    /** Its values are secrets: redacted from every log. */
    headers: z.record(z.string().min(1), z.string()).default({}),
  }),
]);
export type McpServer = z.infer<typeof mcpServerSchema>;

/** `[mcp]`: MCP servers given to every agent session through ACP's `mcpServers` on `session/new`. */
export const mcpConfigSchema = z
  .strictObject({ servers: z.array(mcpServerSchema).max(64).default([]) })
  .refine((mcp) => new Set(mcp.servers.map((s) => s.name)).size === mcp.servers.length, "each MCP server needs a name of its own")
  .prefault({});

/** The secret values of MCP servers (env values, header values): the redactor hides them. */
export function mcpSecrets(servers: readonly McpServer[]): string[] {
  return servers.flatMap((server) => Object.values("command" in server ? server.env : server.headers)).filter((value) => value.length >= 4);
}
