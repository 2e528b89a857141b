import { delimiter } from "node:path";

/**
 * Variables every agent gets from Baton's environment. Nothing else is inherited: another
 * provider's key, or Baton's own settings, must not leak to an agent that was not given them.
 */
export const BASE_AGENT_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ"] as const;

/**
 * Extra directories (PATH syntax) put in front of an agent's PATH, for finding agents that are
 * not on the user's PATH, such as a cache of installed agents
 * (`.agents-cache/<agent>/node_modules/.bin`).
 */
export const AGENT_PATH_ENV = "BATON_AGENT_PATH";

/**
 * Builds an agent's environment: the base variables, the ones `pass` names (`*` in a name
 * matches any text: `CLAUDE_CODE_*`), then `extra`, which wins. PATH gets the directories of
 * `BATON_AGENT_PATH` in front.
 *
 * @example buildAgentEnv(process.env, ["OPENAI_API_KEY"], { NO_BROWSER: "1" })
 */
export function buildAgentEnv(
  parent: Record<string, string | undefined>,
  pass: readonly string[] = [],
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  const matchers = [...BASE_AGENT_ENV, ...pass].map(envMatcher);
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && matchers.some((matches) => matches(name))) env[name] = value;
  }
  const path = agentPath(parent);
  if (path !== undefined) env["PATH"] = path;
  return { ...env, ...extra };
}

/** The PATH an agent gets: `BATON_AGENT_PATH`'s directories, then Baton's own PATH. */
export function agentPath(parent: Record<string, string | undefined>): string | undefined {
  const parts = [parent[AGENT_PATH_ENV], parent["PATH"]].filter((part): part is string => part !== undefined && part.length > 0);
  return parts.length === 0 ? undefined : parts.join(delimiter);
}

/** A name matcher for a variable name or a pattern with `*`. */
export function envMatcher(pattern: string): (name: string) => boolean {
  if (!pattern.includes("*")) return (name) => name === pattern;
  const regex = new RegExp(`^${pattern.split("*").map(escapeRegex).join(".*")}$`);
  return (name) => regex.test(name);
}

function escapeRegex(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
