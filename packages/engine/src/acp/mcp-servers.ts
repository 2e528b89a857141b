import type * as acp from "@agentclientprotocol/sdk";
import type { McpServer } from "../config/mcp-config.ts";

/**
 * The servers an agent is given, by what its `initialize` answer says it takes: every agent
 * takes stdio servers; HTTP ones only with `mcpCapabilities.http`. The others are named in a
 * warning, not dropped in silence.
 */
export function mcpServersFor(servers: readonly McpServer[], capabilities: unknown): { passed: acp.McpServer[]; skipped: Array<{ name: string; why: string }> } {
  const mcp = (capabilities as { mcpCapabilities?: { http?: unknown } } | undefined)?.mcpCapabilities ?? {};
  const passed: acp.McpServer[] = [];
  const skipped: Array<{ name: string; why: string }> = [];
  const pairs = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));
  for (const server of servers) {
    if ("command" in server) passed.push({ name: server.name, command: server.command, args: server.args, env: pairs(server.env) });
    else if (mcp.http !== undefined && mcp.http !== null && mcp.http !== false) passed.push({ type: "http", name: server.name, url: server.url, headers: pairs(server.headers) });
    else skipped.push({ name: server.name, why: "the agent does not say it takes HTTP MCP servers (mcpCapabilities.http)" });
  }
  return { passed, skipped };
}
