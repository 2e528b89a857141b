import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Where `baton serve --otel` keeps how far it has exported, in the project's `.baton/`. */
export const CURSOR_FILE = "otel-cursor.json";

/** A feed position and the feed it belongs to: positions from before an index rebuild mean nothing after it. */
export type ExportCursor = { epoch: string; pos: number };

export function readExportCursor(batonDir: string): ExportCursor | undefined {
  try {
    const value = JSON.parse(readFileSync(join(batonDir, CURSOR_FILE), "utf8")) as Partial<ExportCursor>;
    return typeof value.epoch === "string" && Number.isSafeInteger(value.pos) ? { epoch: value.epoch, pos: value.pos as number } : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole or not at all (a temporary file, fsynced, renamed over): a crash leaves the old cursor or the new one. */
export function writeExportCursor(batonDir: string, cursor: ExportCursor): void {
  const path = join(batonDir, CURSOR_FILE);
  const temporary = `${path}.${process.pid}.tmp`;
  const fd = openSync(temporary, "w", 0o644);
  try {
    writeSync(fd, `${JSON.stringify(cursor)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
}

/** Where to start: the saved position when it belongs to this feed, else the start (ids are stable: a backend sees the same spans). */
export function startPosition(saved: ExportCursor | undefined, epoch: string): number {
  return saved !== undefined && saved.epoch === epoch ? saved.pos : 0;
}
