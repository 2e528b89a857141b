import fs from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import { openIndexDb } from "./index-db.ts";
import { storeFailureKind } from "../store-failure.ts";

/** A damaged index.db that was moved aside: where it is now, and what SQLite said of it. */
export type IndexSetAside = { path: string; aside: string; reason: string };

export type OnIndexSetAside = (setAside: IndexSetAside) => void;

/** The default report of a damaged index moved aside: a process warning on stderr. */
export const warnIndexSetAside: OnIndexSetAside = ({ path, aside, reason }) => {
  process.emitWarning(`${path} was damaged (${reason}): moved to ${aside} for inspection; a new index is built from the run logs`, {
    code: "BATON_INDEX_SET_ASIDE",
  });
};

/** SQLite's companion files of a database in WAL mode: they belong to the file they were made for. */
const COMPANIONS = ["-wal", "-shm"] as const;

/**
 * Opens index.db, or, when it is not a database or is damaged (random bytes, a truncated
 * file), moves it aside with its -wal and -shm to `index.db.corrupt-<time>` (kept for
 * inspection) and opens a new, empty one: the index is derived, and the caller rebuilds it
 * from the logs as it does a deleted one.
 *
 * Two processes may find the same damaged file: the file is moved only if it is still the one
 * that failed to open (same inode), so a process never moves aside the new index another has
 * just made; it opens that one instead.
 */
export function openIndexSettingAside(path: string, busyTimeoutMs: number, now: () => Date, onSetAside: OnIndexSetAside): DatabaseSync {
  for (let attempt = 1; ; attempt += 1) {
    const before = inodeOf(path);
    try {
      return openIndexDb(path, busyTimeoutMs);
    } catch (error) {
      if (storeFailureKind(error) !== "index_corrupt" || attempt > 2) throw error;
      if (before !== undefined && inodeOf(path) === before) {
        const aside = `${path}.corrupt-${now().toISOString().replaceAll(":", "-")}`;
        fs.renameSync(path, aside);
        for (const suffix of COMPANIONS) moveIfThere(`${path}${suffix}`, `${aside}${suffix}`);
        onSetAside({ path, aside, reason: (error as Error).message });
      }
    }
  }
}

function inodeOf(path: string): number | undefined {
  try {
    return fs.statSync(path).ino;
  } catch {
    return undefined;
  }
}

function moveIfThere(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
