import { readRepoStatus, type StatusEntry } from "../git/repo-status.ts";

/** A path with uncommitted changes and how `git status` shows it (`M `, ` D`, `??`, …). */
export type DirtyFile = StatusEntry;

/**
 * Tracked changes (staged or not) and untracked files that are not ignored, relative to the
 * repository root; `.baton/` is left out.
 */
export async function listDirtyFiles(root: string): Promise<DirtyFile[]> {
  return (await readRepoStatus(root)).changes;
}

/** A short list for an error message: the first few paths and how many more. */
export function describeDirty(files: readonly DirtyFile[], max = 5): string {
  const shown = files.slice(0, max).map((file) => `${file.status.trim() === "??" ? "untracked " : ""}${file.path}`);
  return files.length > max ? `${shown.join(", ")} and ${files.length - max} more` : shown.join(", ");
}
