import fs from "node:fs";

/**
 * The two calls group commit depends on, as a seam: tests inject a slow or failing fsync to
 * prove that nothing is delivered before it returns and that a failure is not swallowed.
 * Both run on libuv's thread pool, so appends keep being accepted while a batch is synced.
 */
export type LogFileSystem = {
  /**
   * Writes all of `buffer` at `position` (a short write is continued, never dropped). The
   * writer reuses `buffer` for a later batch once the batch is committed: do not keep it.
   */
  write(fd: number, buffer: Uint8Array, position: number): Promise<void>;
  /** Flushes the file's data and size to stable storage (`fdatasync`). */
  datasync(fd: number): Promise<void>;
};

export const nodeLogFileSystem: LogFileSystem = {
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
