import fs from "node:fs";

/** Width of a hint record: rewritten in place, so the file never grows. */
const HINT_BYTES = 48;

/**
 * A small file rewritten in place after each commit, only so that its change wakes
 * `fs.watch` in followers of other processes. Its content (the last committed seq or
 * position, for people looking) is never trusted: the committed frontier is read from the
 * index, which is updated after the fsync. Watching the log itself would wake followers at
 * the `write`, before the fsync, for nothing.
 */
export class HintFile {
  readonly #fd: number;
  #closed = false;

  constructor(path: string) {
    // No O_TRUNC and no O_APPEND: records are written at offset 0.
    this.#fd = fs.openSync(path, fs.constants.O_WRONLY | fs.constants.O_CREAT, 0o644);
  }

  touch(text: string): void {
    if (this.#closed) return;
    const record = Buffer.alloc(HINT_BYTES, 0x20);
    record.write(text.slice(0, HINT_BYTES - 1));
    record[HINT_BYTES - 1] = 0x0a;
    fs.writeSync(this.#fd, record, 0, HINT_BYTES, 0);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    fs.closeSync(this.#fd);
  }
}
