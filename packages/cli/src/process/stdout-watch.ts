/**
 * Watches stdout for the loss of its reader and returns a signal that aborts then. `baton
 * run --json | head -n 30` closes the pipe early: every write after that fails with EPIPE
 * (harmlessly: the error is taken here, the output dropped). A closed stdout ends nothing by
 * itself: a run goes on to its proper end, a follower stops, as it has no one to follow for.
 * Another failure of stdout (EIO once the terminal is gone) is reported once on stderr and
 * counts the same.
 */
export function watchStdout(stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): AbortSignal {
  const closed = new AbortController();
  stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (closed.signal.aborted) return;
    if (error.code !== "EPIPE") stderr.write(`baton: stdout failed (${error.code ?? error.message}); the rest of the output is dropped\n`);
    closed.abort(error);
  });
  // Once stderr fails too there is nowhere left to report anything: its errors end nothing.
  stderr.on("error", () => {});
  return closed.signal;
}
