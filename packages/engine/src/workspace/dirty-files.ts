import { gitRaw, nulFields } from "./git-cli.ts";

/** A path with uncommitted changes and how `git status` shows it (`M `, ` D`, `??`, …). */
export type DirtyFile = { path: string; status: string };

/** Baton's own folder is never the user's work, whether or not git ignores it. */
const BATON_DIR_PREFIX = ".baton/";

/**
 * Tracked changes (staged or not) and untracked files that are not ignored, relative to the
 * repository root; `.baton/` is left out.
 */
export async function listDirtyFiles(root: string): Promise<DirtyFile[]> {
  // Untrimmed: a leading space is part of the first entry's status (" M").
  const fields = nulFields(await gitRaw(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]));
  const files: DirtyFile[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] as string;
    if (field.length < 4) continue;
    const status = field.slice(0, 2);
    const path = field.slice(3);
    // A rename or copy is followed by its source path in its own field.
    if (status[0] === "R" || status[0] === "C") i += 1;
    if (path.startsWith(BATON_DIR_PREFIX) || path === ".baton") continue;
    files.push({ path, status });
  }
  return files;
}

/** A short list for an error message: the first few paths and how many more. */
export function describeDirty(files: readonly DirtyFile[], max = 5): string {
  const shown = files.slice(0, max).map((file) => `${file.status.trim() === "??" ? "untracked " : ""}${file.path}`);
  return files.length > max ? `${shown.join(", ")} and ${files.length - max} more` : shown.join(", ");
}
