import { lstatSync, readlinkSync } from "node:fs";
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
  const pending = components(path.slice(start.length));
  let current = start;
  let links = 0;
  let missing = false;
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
  return current;
}

/** A link's target; undefined for anything else that exists; "missing" when nothing is there to look at. */
function linkTarget(path: string): string | undefined | "missing" {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    // ENOENT, ENOTDIR (a file used as a folder), EACCES: nothing below can be looked at.
    return "missing";
  }
}

function components(path: string): string[] {
  return path.split(sep).filter((part) => part !== "" && part !== ".");
}
