import fs from "node:fs";
import { BatonError } from "../../errors.ts";

/**
 * What went wrong below `.baton/` when a file or index.db operation failed, as far as a user
 * can act on it: a full disk, a store that cannot be written, a failing disk, a damaged index.
 */
export type StoreFailureKind = "disk_full" | "read_only" | "disk_error" | "index_corrupt";

/** SQLite's primary result codes that name a store failure (https://sqlite.org/rescode.html). */
const SQLITE_KINDS: Record<number, StoreFailureKind> = {
  3: "read_only", // SQLITE_PERM
  8: "read_only", // SQLITE_READONLY
  10: "disk_error", // SQLITE_IOERR
  11: "index_corrupt", // SQLITE_CORRUPT
  13: "disk_full", // SQLITE_FULL
  26: "index_corrupt", // SQLITE_NOTADB
};

const ERRNO_KINDS: Record<string, StoreFailureKind> = {
  ENOSPC: "disk_full",
  EDQUOT: "disk_full",
  EROFS: "read_only",
  EACCES: "read_only",
  EPERM: "read_only",
  EIO: "disk_error",
};

/** The kind of store failure an error is (an errno or a SQLite result code), if it is one. */
export function storeFailureKind(error: unknown): StoreFailureKind | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // node:sqlite gives extended result codes (SQLITE_IOERR_WRITE is 778): the primary code is the low byte.
  if (code === "ERR_SQLITE_ERROR" && typeof errcode === "number") return SQLITE_KINDS[errcode & 0xff];
  return typeof code === "string" ? ERRNO_KINDS[code] : undefined;
}

/** The problem and the fix, worded for a user, for each kind. */
const WORDING: Record<StoreFailureKind, { code: string; problem: string; hint: string }> = {
  disk_full: {
    code: "disk_full",
    problem: "the disk is full",
    hint: "free some space and run the command again (a run this cut short gets its end recorded by the next command, e.g. `baton runs`)",
  },
  read_only: {
    code: "store_read_only",
    problem: "it cannot be written (a read-only file system, or no write permission)",
    hint: "make .baton/ writable (its mount, owner or permissions) and run the command again",
  },
  disk_error: {
    code: "disk_error",
    problem: "the disk reported an I/O error",
    hint: "check the disk (the run logs in .baton/runs/ are the record; index.db is rebuilt from them when it is moved aside)",
  },
  index_corrupt: {
    code: "index_corrupt",
    problem: "index.db is damaged",
    hint: "move .baton/index.db aside (it is rebuilt from the run logs) and run the command again",
  },
};

/**
 * The one-line error for a store failure while `doing` something (`opening /repo/.baton`,
 * `writing run run_…`; none where that is not known), or undefined when `error` is not one.
 * `code` overrides the kind's code (a broken writer keeps `store_write_failed`).
 *
 * @example throw storeFailure(error, `opening ${batonDir}`) ?? error;
 */
export function storeFailure(error: unknown, doing?: string, options: { code?: string; kind?: StoreFailureKind } = {}): BatonError | undefined {
  const kind = options.kind ?? storeFailureKind(error);
  if (kind === undefined) return undefined;
  const wording = WORDING[kind];
  const detail = error instanceof Error ? error.message : String(error);
  const problem = `${wording.problem} (${detail})`;
  return new BatonError(options.code ?? wording.code, doing === undefined ? problem : `${doing} failed: ${problem}`, {
    hint: wording.hint,
    details: { kind },
    cause: error,
  });
}

/**
 * Whether `dir` can be written, asked of the file system itself: SQLite reports a read-only
 * directory as "unable to open database file" (its -wal and -shm files cannot be made there).
 */
export function isWritableDirectory(dir: string): boolean {
  try {
    fs.accessSync(dir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
