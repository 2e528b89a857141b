import fs from "node:fs";

/**
 * The calls group commit depends on, as a seam: tests inject a slow or failing fsync to
 * prove that nothing is delivered before it returns and that a failure is not swallowed.
 * They run on libuv's thread pool, so appends keep being accepted while a batch is synced.
 */
export type LogFileSystem = {
  /**
   * When true, logs are opened with `O_DSYNC` (see `logOpenFlags`): each `write` returns once
   * its bytes are on stable storage, as if followed by `fdatasync`, and the writer calls no
   * `datasync` (a double that spreads `nodeLogFileSystem` to gate `datasync` must set it false).
   * A batch then costs one trip through the thread pool instead of two, and the completion of
   * its write no longer waits for this thread to start its fdatasync (a producer busy
   * encoding a burst held that up by milliseconds). Without it (test doubles that gate the
   * fsync), a batch is `write` then `datasync`.
   */
  synchronousWrites?: boolean;
  /**
   * Writes all of `buffer` at `position` (a short write is continued, never dropped). The
   * writer reuses `buffer` for a later batch once the batch is committed: do not keep it.
   */
  write(fd: number, buffer: Uint8Array, position: number): Promise<void>;
  /** Flushes the file's data and size to stable storage (`fdatasync`). */
  datasync(fd: number): Promise<void>;
};

export const nodeLogFileSystem: LogFileSystem = {
  // Where the platform has no O_DSYNC (Windows), a batch is write then fdatasync.
  synchronousWrites: (fs.constants.O_DSYNC as number | undefined) !== undefined,
  async write(fd, buffer, position) {
    let done = 0;
    while (done < buffer.byteLength) {
      done += await writeOnce(fd, buffer, done, position + done);
    }
  },
  datasync(fd) {
    return new Promise((resolve, reject) => {
      fs.fdatasync(fd, (error) => (error ? reject(error) : resolve()));
    });
  },
};

/** Flags a run's log is opened with for writing: `O_DSYNC` when the file system's writes are synchronous. */
export function logOpenFlags(fileSystem: LogFileSystem): number {
  const { O_RDWR, O_CREAT, O_DSYNC } = fs.constants;
  return O_RDWR | O_CREAT | (fileSystem.synchronousWrites === true ? O_DSYNC : 0);
}

function writeOnce(fd: number, buffer: Uint8Array, offset: number, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    fs.write(fd, buffer, offset, buffer.byteLength - offset, position, (error, written) => {
      if (error) reject(error);
      else if (written === 0) reject(new Error("write made no progress"));
      else resolve(written);
    });
  });
}

/** fsync of a directory, so that a file created or renamed in it survives a crash. */
export function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
