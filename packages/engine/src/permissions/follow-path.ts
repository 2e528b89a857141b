import { lstatSync, readlinkSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, parse, sep } from "node:path";

/** Symbolic links followed in one path before it counts as a loop: Linux's own limit (ELOOP). */
const MAX_LINKS = 40;

/**
 * Where a write to the absolute `path` would land, resolved the way the kernel resolves it:
 * component by component from the left, each symbolic link replaced by its target as it is met
 * (relative targets against the link's folder, links to links followed), `..` taken after the
 * link before it, and a dangling link's target followed too, since writing through it creates
 * that target. Past the first component that does not exist, the rest is appended as written.
 * Undefined for a loop of links. `path.resolve` is not enough: it drops `link/..` before
 * looking at `link`, and stops at a dangling link.
 *
 * @example followPath("/repo/d") // => "/outside/new.txt" when d is a link to it, existing or not
 */
export function followPath(path: string): string | undefined {
  const start = parse(path).root;
  return walk(start, components(path.slice(start.length)), { missing: false, links: 0 })?.path;
}

/** Where a folder resolved to with {@link resolveFolder}, to resolve paths below it from. */
export type ResolvedFolder = { path: string; resolved: string; missing: boolean; links: number };

/**
 * Resolves the absolute `path` of a folder once, so that paths below it can be followed from
 * there ({@link followPathBelow}) without looking at its components again. Undefined for a
 * loop of links.
 */
export function resolveFolder(path: string): ResolvedFolder | undefined {
  const start = parse(path).root;
  const walked = walk(start, components(path.slice(start.length)), { missing: false, links: 0 });
  return walked === undefined ? undefined : { path, resolved: walked.path, missing: walked.missing, links: walked.links };
}

/** A folder resolved earlier, and the directory (device, inode) it resolved to then. */
type KnownFolder = { folder: ResolvedFolder; dev: number; ino: number };
/** Folders resolved in this process, by path: a run asks about the same workspace root for every call. */
const knownFolders = new Map<string, KnownFolder>();
/** More than a process has workspaces at once: past it, the folders are resolved afresh. */
const MAX_KNOWN_FOLDERS = 64;

/**
 * {@link resolveFolder}, walked once per folder and then checked in one or two system calls:
 * the resolved path must still be that very directory (not a link, so that `..` below it is
 * still its parent), and the folder's own path must still lead to it. Any change on the way
 * (a folder moved, a link put in its place or re-pointed) resolves it again, component by
 * component. A folder that does not exist is never kept.
 */
export function resolveFolderOnce(path: string): ResolvedFolder | undefined {
  const known = knownFolders.get(path);
  if (known !== undefined && stillResolves(known)) return known.folder;
  knownFolders.delete(path);
  const folder = resolveFolder(path);
  if (folder === undefined || folder.missing) return folder;
  const at = directoryAt(folder.resolved, lstatSync);
  if (at === undefined) return folder;
  if (knownFolders.size >= MAX_KNOWN_FOLDERS) knownFolders.clear();
  knownFolders.set(path, { folder, ...at });
  return folder;
}

function stillResolves(known: KnownFolder): boolean {
  const same = (at: { dev: number; ino: number } | undefined) => at !== undefined && at.dev === known.dev && at.ino === known.ino;
  if (!same(directoryAt(known.folder.resolved, lstatSync))) return false;
  return known.folder.path === known.folder.resolved || same(directoryAt(known.folder.path, statSync));
}

/** The directory at `path` as `look` sees it (lstat: not through a last link; stat: through it); undefined for anything else. */
function directoryAt(path: string, look: typeof lstatSync | typeof statSync): { dev: number; ino: number } | undefined {
  try {
    const stats = look(path);
    return stats.isDirectory() ? { dev: stats.dev, ino: stats.ino } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * {@link followPath} for an absolute `path`, taking `folder` (resolved a moment ago) for the
 * components it shares with it: the kernel resolves a path from the left, so what lies below
 * a folder lands where it would below the folder's own resolved path.
 *
 * @example followPathBelow(resolveFolder("/repo"), "/repo/src/a.txt") // => same as followPath("/repo/src/a.txt")
 */
export function followPathBelow(folder: ResolvedFolder, path: string): string | undefined {
  const prefix = folder.path.endsWith(sep) ? folder.path : `${folder.path}${sep}`;
  if (!path.startsWith(prefix)) return followPath(path);
  return walk(folder.resolved, components(path.slice(prefix.length)), folder)?.path;
}

/**
 * Follows `pending` from `start` (already resolved) on from `before`: whether a component
 * before was missing, and how many links were followed to get there.
 */
function walk(start: string, pending: string[], before: { missing: boolean; links: number }): { path: string; missing: boolean; links: number } | undefined {
  let current = start;
  let { missing, links } = before;
  while (pending.length > 0) {
    const part = pending.shift() as string;
    if (part === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, part);
    if (missing) {
      current = next;
      continue;
    }
    const target = linkTarget(next);
    if (target === "missing") {
      missing = true;
      current = next;
    } else if (target === undefined) {
      current = next;
    } else {
      links += 1;
      if (links > MAX_LINKS) return undefined;
      pending.unshift(...components(target));
      if (isAbsolute(target)) current = parse(target).root;
    }
  }
  return { path: current, missing, links };
}

/** A link's target; undefined for anything else that exists; "missing" when nothing is there to look at. */
function linkTarget(path: string): string | undefined | "missing" {
  try {
    // A path that is not there yet (a file an edit creates) is the common case: no error is
    // made for it (an exception with its stack costs more than the lstat).
    const stats = lstatSync(path, { throwIfNoEntry: false });
    if (stats === undefined) return "missing";
    return stats.isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    // ENOENT, ENOTDIR (a file used as a folder), EACCES: nothing below can be looked at.
    return "missing";
  }
}

function components(path: string): string[] {
  return path.split(sep).filter((part) => part !== "" && part !== ".");
}
