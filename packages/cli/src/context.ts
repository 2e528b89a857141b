/** What a command may touch of the outside world; tests pass their own. */
export type CliContext = {
  cwd: string;
  env: Record<string, string | undefined>;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Aborted on Ctrl-C, SIGTERM or SIGHUP (its reason: who ended the command and why). */
  signal: AbortSignal;
  /** Aborted when stdout lost its reader (EPIPE: `baton events | head`); later output is dropped. */
  stdoutClosed: AbortSignal;
  /** Whether a person is at a terminal (stdin is a TTY): runs without one must have a timeout. */
  interactive?: boolean;
};

/** Exit codes: documented in the README and relied on by scripts. */
export const EXIT = {
  succeeded: 0,
  failed: 1,
  usage: 2,
  /** Stopped at a limit or by the model provider, its work committed. */
  stopped: 3,
  /** Stopped at its timeout (`timeout`'s own code), its work committed. */
  timedOut: 124,
  cancelled: 130,
} as const;
