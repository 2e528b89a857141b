/**
 * The environment of a `baton` (or `git`) child in a test: only what git, sh and node need
 * (NODE_OPTIONS too: it has node run the checkout's sources), a git identity and no system git
 * config. A secret-looking variable of the test's own would turn redaction on.
 */
export function batonEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ["PATH", "HOME", "LANG", "TMPDIR", "NODE_OPTIONS"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const identity = { GIT_AUTHOR_NAME: "Baton Test", GIT_AUTHOR_EMAIL: "test@baton.invalid", GIT_COMMITTER_NAME: "Baton Test", GIT_COMMITTER_EMAIL: "test@baton.invalid" };
  // No terminal here: runs need a timeout (also those a page or a client starts through the server).
  return { ...env, ...identity, GIT_CONFIG_NOSYSTEM: "1", BATON_TIMEOUT: "10m", ...extra };
}
