/**
 * The environment of command stages (and setup and validation commands): a small, built one,
 * like an agent's, with no secrets of Baton's own. In a file of its own so that `baton run`
 * gets it without loading the workflow engine.
 */
export function commandEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const keep = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "TMPDIR", "LANG", "LC_ALL", "LC_CTYPE", "TZ"];
  const out: Record<string, string> = {};
  for (const name of keep) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
