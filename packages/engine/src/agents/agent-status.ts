import type { AgentEntry, ModelChoice } from "./agent-entry.ts";
import { agentEnvFor, envNamesOf } from "./agent-launch.ts";
import { agentVersion } from "./agent-version.ts";
import type { AgentRegistry } from "./registry.ts";
import type { ProxyWiring } from "./proxy-wiring.ts";
import { resolveCommand } from "./resolve-command.ts";
import { definedFields } from "@baton/protocol/core";

/** One line of `baton agents`: is the agent installed, which version, and how it would start. */
export type AgentStatus = {
  name: string;
  description?: string;
  installed: boolean;
  /** Where the command was found on the agent's PATH. */
  path?: string;
  /** Why it is not installed. */
  reason?: string;
  version?: string;
  package?: string;
  /** The command line it is started with (before a run's own arguments). */
  command: string[];
  /** Variables passed besides the base ones (patterns with `*` as written). */
  env: string[];
  model: ModelChoice;
  /** How it is pointed at the inference proxy (its entry's `proxy`). */
  proxy: ProxyWiring;
  session_mode?: string;
  no_client_fs: boolean;
  /** What limits can be enforced for it, and how it is watched (see the entry's fields). */
  reports_cost: boolean;
  reports_tokens: boolean;
  token_reports: "turn" | "call";
  notices: boolean;
  stall_timeout?: number;
};

/**
 * Looks at every agent in the registry as `baton run` would start it: its command resolved on
 * the PATH it would get (with `BATON_AGENT_PATH`), then `version_args` run. Agents are looked
 * at in parallel; nothing is cached.
 */
export function agentStatuses(registry: AgentRegistry, parentEnv: Record<string, string | undefined>, cwd: string): Promise<AgentStatus[]> {
  return Promise.all([...registry].map(([name, entry]) => agentStatus(name, entry, parentEnv, cwd)));
}

async function agentStatus(name: string, entry: AgentEntry, parentEnv: Record<string, string | undefined>, cwd: string): Promise<AgentStatus> {
  const env = agentEnvFor(entry, parentEnv);
  const resolved = await resolveCommand(entry.command, env["PATH"], cwd);
  const status: AgentStatus = {
    name,
    ...definedFields({ description: entry.description }),
    installed: resolved.found,
    ...definedFields({ package: entry.package }),
    command: [entry.command, ...entry.args],
    env: envNamesOf(entry),
    model: entry.model,
    proxy: entry.proxy,
    ...definedFields({ session_mode: entry.session_mode }),
    no_client_fs: entry.no_client_fs,
    reports_cost: entry.reports_cost,
    reports_tokens: entry.reports_tokens,
    token_reports: entry.token_reports,
    notices: entry.notices,
    ...definedFields({ stall_timeout: entry.stall_timeout }),
  };
  if (!resolved.found) return { ...status, reason: resolved.reason };
  const version = await agentVersion(resolved.path, entry.version_args, env, cwd);
  return { ...status, path: resolved.path, ...definedFields({ version }) };
}
