import { definedFields } from "@baton/protocol/core";
import { BatonError } from "../errors.ts";
import type { AgentEntry, ModelChoice } from "./agent-entry.ts";
import type { ProxyWiring } from "./proxy-wiring.ts";
import type { McpServer } from "../config/mcp-config.ts";
import { AGENT_PATH_ENV, buildAgentEnv } from "./agent-env.ts";
import { resolveCommand } from "./resolve-command.ts";

/** What the ACP session does for an agent after `session/new`, from its entry and `--model`. */
export type SessionSetup = {
  /** The model asked for with `--model`. */
  model?: string;
  modelChoice: ModelChoice;
  /** Whether the client `fs` capability may be advertised. */
  clientFs: boolean;
  sessionMode?: string;
  /** `[[mcp.servers]]`: given to the session on `session/new`, as the agent's capabilities allow. */
  mcpServers?: readonly McpServer[];
};

/** How to start one agent for one run: its resolved command, its built environment, its session setup. */
export type AgentLaunch = {
  command: string;
  args: string[];
  env: Record<string, string>;
  session: SessionSetup;
  /** How it is pointed at the inference proxy, when the run gives it one. */
  proxy: ProxyWiring;
};

export type LaunchOptions = {
  /** Baton's environment: the agent gets only the parts its entry names. */
  env: Record<string, string | undefined>;
  /** Where relative commands are resolved (the project root). */
  cwd: string;
  model?: string;
  /** Appended to the entry's `args` (the fake agent's `--script FILE`). */
  extraArgs?: readonly string[];
  /** `[[mcp.servers]]`, for the session's `session/new`. */
  mcpServers?: readonly McpServer[];
};

/**
 * Prepares an agent's start, checking everything that can be checked before a run exists.
 *
 * @throws BatonError `model_unsupported` when `--model` was given to an agent with no way to
 *   take it; `agent_not_installed` naming the npm package when the command is not found.
 */
export async function prepareAgentLaunch(name: string, entry: AgentEntry, options: LaunchOptions): Promise<AgentLaunch> {
  if (options.model !== undefined && entry.model.via === "none") {
    throw new BatonError("model_unsupported", `agent "${name}" offers no way to choose its model, but --model was given`, {
      hint: `drop --model, or say how it takes one with model = { via = "env" | "config_option" | "session_model" } in [agents.${name}]`,
    });
  }
  const env = agentEnvFor(entry, options.env, options.model);
  const resolved = await resolveCommand(entry.command, env["PATH"], options.cwd);
  if (!resolved.found) throw notInstalled(name, entry, resolved.reason);
  return {
    command: resolved.path,
    args: [...entry.args, ...(options.extraArgs ?? [])],
    env,
    proxy: entry.proxy,
    session: {
      ...definedFields({ model: options.model }),
      modelChoice: entry.model,
      clientFs: !entry.no_client_fs,
      ...definedFields({ sessionMode: entry.session_mode, mcpServers: options.mcpServers?.length ? options.mcpServers : undefined }),
    },
  };
}

/** The environment an agent gets: base variables, its `pass_env`, its fixed `env`, and the model variable. */
export function agentEnvFor(entry: AgentEntry, parent: Record<string, string | undefined>, model?: string): Record<string, string> {
  const modelEnv = model !== undefined && entry.model.via === "env" ? { [entry.model.name]: model } : {};
  return buildAgentEnv(parent, entry.pass_env, { ...entry.env, ...modelEnv });
}

function notInstalled(name: string, entry: AgentEntry, reason: string): BatonError {
  const install = entry.package === undefined ? "install it" : `install it with \`npm install -g ${entry.package}\``;
  return new BatonError("agent_not_installed", `agent "${name}" is not installed: ${reason}`, {
    hint: `${install}, or put its folder on ${AGENT_PATH_ENV}`,
  });
}

/**
 * How the agent reaches the inference proxy, in words for `baton agents`: the provider route
 * and the variable that takes the base URL, OpenCode's or Codex's config, `-` when it is not
 * proxied, `off` when `[proxy] enabled = false`.
 */
export function describeProxyWiring(wiring: ProxyWiring, enabled: boolean): string {
  if (!enabled) return "off";
  switch (wiring.via) {
    case "env":
      return `${wiring.provider} ${wiring.base_url_env}`;
    case "opencode":
      return "OPENCODE_CONFIG_CONTENT";
    case "codex":
      return "CODEX_CONFIG provider";
    case "none":
      return "-";
  }
}

/** How the model reaches the agent, in words for `baton agents`. */
export function describeModelChoice(choice: ModelChoice): string {
  switch (choice.via) {
    case "env":
      return `env ${choice.name}`;
    case "config_option":
      return `config option ${choice.id}`;
    case "session_model":
      return "session/set_model";
    case "none":
      return "-";
  }
}

/** The variables an agent gets besides the base ones: its `pass_env` patterns, fixed names, and the model variable. */
export function envNamesOf(entry: AgentEntry): string[] {
  const names = [...entry.pass_env, ...Object.keys(entry.env)];
  if (entry.model.via === "env") names.push(entry.model.name);
  return [...new Set(names)];
}
