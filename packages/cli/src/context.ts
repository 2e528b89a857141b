/** What a command may touch of the outside world; tests pass their own. */
export type CliContext = {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Aborted on Ctrl-C or SIGTERM. */
  signal: AbortSignal;
};

/** Exit codes: documented in the README and relied on by scripts. */
export const EXIT = {
  succeeded: 0,
  failed: 1,
  usage: 2,
  cancelled: 130,
} as const;
