/**
 * Variables every agent gets from Baton's environment. Nothing else is inherited: another
 * provider's key, or Baton's own settings, must not leak to an agent that was not given them.
 */
export const BASE_AGENT_ENV = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ"] as const;

/** Builds an agent's environment: the base variables, the ones its entry names, and `extra`. */
export function buildAgentEnv(
  parent: Record<string, string | undefined>,
  pass: readonly string[] = [],
  extra: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...BASE_AGENT_ENV, ...pass]) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...extra };
}
