// Where the real agents live once installed: one folder per agent under a cache directory,
// kept out of the repository's dependency tree (together they take over a gigabyte).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pinned from "./agents.json" with { type: "json" };

/** Overrides the cache directory (default `<repo>/.agents-cache`). */
export const AGENTS_CACHE_ENV = "BATON_AGENTS_CACHE";

export type AgentName = keyof typeof pinned;
export type AgentPin = { package: string; version: string; bin: string };

/** The pinned agents, by Baton's short name. Versions are exact: a test pins behaviour. */
export const AGENT_PINS: Record<AgentName, AgentPin> = pinned;
export const AGENT_NAMES = Object.keys(pinned) as AgentName[];

const REPO_ROOT = join(import.meta.dirname, "..", "..");

export function isAgentName(name: string): name is AgentName {
  return Object.hasOwn(pinned, name);
}

export function agentsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[AGENTS_CACHE_ENV];
  return override !== undefined && override !== "" ? override : join(REPO_ROOT, ".agents-cache");
}

/** The npm prefix an agent is installed into. */
export function agentDir(agent: AgentName, env: NodeJS.ProcessEnv = process.env): string {
  return join(agentsCacheDir(env), agent);
}

/** The agent's executable inside its prefix (npm links it into `node_modules/.bin`). */
export function agentBinPath(agent: AgentName, env: NodeJS.ProcessEnv = process.env): string {
  return join(agentDir(agent, env), "node_modules", ".bin", AGENT_PINS[agent].bin);
}

/** The version installed in the cache, or undefined when the agent is not installed. */
export function installedAgentVersion(agent: AgentName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const manifest = join(agentDir(agent, env), "node_modules", AGENT_PINS[agent].package, "package.json");
  if (!existsSync(manifest) || !existsSync(agentBinPath(agent, env))) return undefined;
  return (JSON.parse(readFileSync(manifest, "utf8")) as { version?: string }).version;
}

/** True when the pinned version of `agent` is ready to start. */
export function isAgentInstalled(agent: AgentName, env: NodeJS.ProcessEnv = process.env): boolean {
  return installedAgentVersion(agent, env) === AGENT_PINS[agent].version;
}

/** Names the agents a test run must have (comma-separated, or `all`): CI sets it so that a missing agent fails instead of skipping. */
export const REQUIRE_AGENTS_ENV = "BATON_REQUIRE_AGENTS";

export function isAgentRequired(agent: AgentName, env: NodeJS.ProcessEnv = process.env): boolean {
  const names = (env[REQUIRE_AGENTS_ENV] ?? "").split(",").map((name) => name.trim());
  return names.includes("all") || names.includes(agent);
}

/**
 * How a real-agent test treats `agent`: run it (`skip: false`, and `missing` set when it is
 * required but not installed, so the test fails saying so), or skip it with the command that
 * installs it.
 */
export function agentTestPlan(agent: AgentName, env: NodeJS.ProcessEnv = process.env): { skip: string | false; missing?: string } {
  if (isAgentInstalled(agent, env)) return { skip: false };
  const { package: pkg, version } = AGENT_PINS[agent];
  const why = `${pkg}@${version} is not installed at ${agentBinPath(agent, env)}; run: npm run agents:install -- ${agent}`;
  return isAgentRequired(agent, env) ? { skip: false, missing: `${why} (${REQUIRE_AGENTS_ENV} requires it)` } : { skip: why };
}
