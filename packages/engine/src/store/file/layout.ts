import path from "node:path";

/**
 * Where things live under `.baton/`. One place, so that the writer, the readers, recovery and
 * the rebuild never disagree about a path.
 */
export type StoreLayout = {
  batonDir: string;
  runsDir: string;
  indexPath: string;
  /** Touched by every writer after each commit: wakes feed followers in any process. */
  feedHintPath: string;
};

export function storeLayout(batonDir: string): StoreLayout {
  const root = path.resolve(batonDir);
  return {
    batonDir: root,
    runsDir: path.join(root, "runs"),
    indexPath: path.join(root, "index.db"),
    feedHintPath: path.join(root, "feed-hint"),
  };
}

/** A run's log, in its folder. */
export const LOG_FILE = "events.jsonl";

export type RunPaths = {
  dir: string;
  events: string;
  lock: string;
  /** Guards the takeover of a stale lock, so two takers cannot both win. */
  lockTakeover: string;
  /** Touched by the writer after each commit: wakes followers of this run in any process. */
  commitHint: string;
};

export function runPaths(layout: StoreLayout, runId: string): RunPaths {
  const dir = path.join(layout.runsDir, runId);
  return {
    dir,
    events: path.join(dir, LOG_FILE),
    lock: path.join(dir, "writer.lock"),
    lockTakeover: path.join(dir, "writer.lock.takeover"),
    commitHint: path.join(dir, "commit-hint"),
  };
}
