import { agentStatuses, describeModelChoice, describeProxyWiring, isBatonError, loadConfig, parseConfig, tokenOvershoot, type AgentStatus, type BatonConfig } from "@baton/engine";
import { agentRegistry } from "../agent-registry.ts";
import { EXIT, type CliContext } from "../context.ts";
import { writeLine } from "../output.ts";
import { locateProject } from "../project.ts";
import { stylerFor } from "../render/style.ts";
import { terminalJson, visibleText } from "../render/terminal-text.ts";
import { shellQuote } from "../shell-quote.ts";

/**
 * `baton agents`: every agent in the registry, whether its command is found on the PATH it
 * would get (with BATON_AGENT_PATH), its version, and how it would be started. Outside a
 * project, the built-in agents.
 */
export async function agentsCommand(ctx: CliContext, options: { json?: boolean }): Promise<number> {
  const { config, root } = await projectConfig(ctx);
  const statuses = await agentStatuses(agentRegistry(config), ctx.env, root);
  if (options.json) {
    // NDJSON, like every --json of Baton's: one object per agent, one per line.
    for (const status of statuses) await writeLine(ctx.stdout, terminalJson(status));
    return EXIT.succeeded;
  }
  const style = stylerFor(ctx.stdout);
  const header = ["AGENT", "INSTALLED", "VERSION", "MODEL VIA", "REPORTS", "PROXY", "COMMAND", "ENV PASSED"];
  // Names and commands come from the project's config, versions from the agents themselves.
  const rows = statuses.map((status) =>
    [
      status.name,
      status.installed ? "yes" : "no",
      status.version ?? "-",
      describeModelChoice(status.model),
      reportsCell(status),
      describeProxyWiring(status.proxy, config.proxy.enabled),
      status.command.map(shellQuote).join(" "),
      status.env.join(",") || "-",
    ].map((cell) => visibleText(cell)),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? "").length)));
  const format = (row: string[]) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  ");
  ctx.stdout.write(`${style("bold", format(header))}\n`);
  for (const row of rows) ctx.stdout.write(`${format(row)}\n`);
  ctx.stdout.write(`\n${TOKEN_BUDGET_NOTE}\n\n${PROXY_NOTE}\n`);
  const missing = statuses.filter((status) => !status.installed);
  if (missing.length > 0) ctx.stdout.write(`\n${missing.map((status) => visibleText(installHint(status))).join("\n")}\n`);
  return EXIT.succeeded;
}

async function projectConfig(ctx: CliContext): Promise<{ config: BatonConfig; root: string }> {
  try {
    const project = await locateProject(ctx.cwd);
    return { config: await loadConfig(project.batonDir), root: project.root };
  } catch (error) {
    // Not in a project (no repository, no .baton/): the built-ins alone. A broken config is
    // still an error.
    if (isBatonError(error) && error.code !== "bad_config") return { config: parseConfig("", "(defaults)"), root: ctx.cwd };
    throw error;
  }
}

/** How far a token budget holds with each kind of report: the REPORTS column's key. */
const TOKEN_BUDGET_NOTE = [
  "A token budget (--max-tokens) is checked whenever the agent's token counts arrive:",
  `  tokens/turn  it can be overshot ${tokenOvershoot("turn")};`,
  `  tokens/call  it can be overshot ${tokenOvershoot("call")}.`,
  "A token budget for an agent that reports no tokens is refused, as a cost budget is without cost.",
].join("\n");

/** What the PROXY column says. */
const PROXY_NOTE = [
  "PROXY: how the agent reaches its model through Baton's inference proxy (a run token, no provider key):",
  "  the provider route and the variable given the proxy's URL, or the agent's config Baton writes;",
  "  - not proxied (its keys come from pass_env); off: [proxy] enabled = false.",
].join("\n");

/** `tokens/turn,cost`: what the agent reports, and for tokens when (see the note). */
function reportsCell(status: AgentStatus): string {
  const reports = [status.reports_tokens ? `tokens/${status.token_reports}` : "", status.reports_cost ? "cost" : ""];
  return reports.filter((r) => r !== "").join(",") || "-";
}

function installHint(status: AgentStatus): string {
  const how = status.package === undefined ? "" : `; install: npm install -g ${status.package}`;
  return `${status.name}: ${status.reason ?? "not found"}${how}`;
}
