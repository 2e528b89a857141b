import fs from "node:fs";
import { DEFAULT_EVENT_LIMIT_BYTES, definedFields } from "@baton/protocol/core";
import { BatonError } from "../../errors.ts";
import { CommitBus } from "./follow/commit-bus.ts";
import { FOLLOW_POLL_MS } from "./follow/commit-waker.ts";
import { FeedRows } from "./index/feed-rows.ts";
import { HintFile } from "./follow/hint-file.ts";
import { DEFAULT_BUSY_TIMEOUT_MS, WalCheckpoints } from "./index/index-db.ts";
import { openIndexSettingAside, warnIndexSetAside, type OnIndexSetAside } from "./index/index-set-aside.ts";
import { storeLayout, type StoreLayout } from "./layout.ts";
import { nodeLogFileSystem, type LogFileSystem } from "./log/log-file-system.ts";
import { warnMalformed, type OnMalformed } from "./log/log-range-reader.ts";
import { currentProcess } from "./lock/process-identity.ts";
import { rebuildIfNeeded } from "./index/rebuild.ts";
import { reconcileAll } from "./index/reconcile-all.ts";
import { isWritableDirectory, storeFailure } from "./store-failure.ts";
import { RunCatalog } from "./index/run-catalog.ts";
import type { RunWriter } from "./log/run-writer.ts";
import { isDirectory, Store } from "./store.ts";
import type { StoreContext } from "./store-context.ts";

export type StoreOptions = {
  /** Clock for event times and lock records (default: the system clock). */
  now?: () => Date;
  /** Source of new run ids, `run_` + ULID (default: monotonic ULIDs from `now`). */
  newRunId?: () => string;
  /** The write/fsync seam (default: node:fs). */
  fileSystem?: LogFileSystem;
  /** Serialized size above which an event's data is replaced by a truncation marker. */
  eventLimitBytes?: number;
  /** How long to wait for another process's index transaction. */
  busyTimeoutMs?: number;
  /** Follower polling interval, the fallback of fs.watch. */
  pollMs?: number;
  /** Where malformed log lines are reported (default: a process warning). */
  onMalformed?: OnMalformed;
  /** Where a damaged index.db moved aside is reported (default: a process warning). */
  onIndexSetAside?: OnIndexSetAside;
  /**
   * Writers listen on a live socket so that other processes receive their ephemeral events
   * (`agent.delta`); default true. Off, deltas reach subscribers in this process only.
   */
  liveEvents?: boolean;
};

/**
 * Opens the store of a project: `<batonDir>/index.db` and `<batonDir>/runs/`. The directory
 * must exist (`baton init` creates it). A missing or new index.db is rebuilt from the logs (a
 * damaged one is moved aside first, see openIndexSettingAside), and runs whose writer died
 * between fsync and index commit are brought up to date. A store that cannot be opened for
 * want of space, of write access, or of a working disk is a `BatonError` saying which.
 *
 * @example
 * await using store = await openStore(".baton");
 * const writer = await store.createRun({ task: "fix the flaky test", agent: "claude", repo });
 * writer.append("run.started", { attempt: 1, resumed: false, pid: process.pid, host });
 * await writer.close();
 */
export async function openStore(batonDir: string, options: StoreOptions = {}): Promise<Store> {
  const layout = storeLayout(batonDir);
  if (!isDirectory(layout.batonDir)) {
    throw new BatonError("not_initialized", `${layout.batonDir} does not exist`, { hint: "run `baton init` in the repository first" });
  }
  try {
    return await openExistingStore(layout, options);
  } catch (error) {
    if (error instanceof BatonError) throw error;
    // SQLite says "unable to open database file" of a directory it cannot make its -wal in.
    const kind = isWritableDirectory(layout.batonDir) ? undefined : ("read_only" as const);
    throw storeFailure(error, `opening ${layout.batonDir}`, definedFields({ kind })) ?? error;
  }
}

async function openExistingStore(layout: StoreLayout, options: StoreOptions): Promise<Store> {
  fs.mkdirSync(layout.runsDir, { recursive: true });
  const now = options.now ?? (() => new Date());
  const db = openIndexSettingAside(layout.indexPath, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS, now, options.onIndexSetAside ?? warnIndexSetAside);
  let feedHint: HintFile | undefined;
  try {
    feedHint = new HintFile(layout.feedHintPath);
    const writers = new Set<RunWriter>();
    const context: StoreContext = {
      layout,
      db,
      checkpoints: new WalCheckpoints(db),
      catalog: new RunCatalog(db),
      feed: new FeedRows(db),
      bus: new CommitBus(),
      feedHint,
      fileSystem: options.fileSystem ?? nodeLogFileSystem,
      now,
      nowMs: options.now === undefined ? Date.now : () => now().getTime(),
      newRunId: options.newRunId ?? ulidRunIds(now),
      identity: currentProcess(),
      eventLimitBytes: options.eventLimitBytes ?? DEFAULT_EVENT_LIMIT_BYTES,
      pollMs: options.pollMs ?? FOLLOW_POLL_MS,
      liveEvents: options.liveEvents ?? true,
      onMalformed: options.onMalformed ?? warnMalformed,
      onClosed: (writer) => writers.delete(writer),
    };
    await rebuildIfNeeded(context);
    await reconcileAll(context);
    return new Store(context, writers);
  } catch (error) {
    feedHint?.close();
    db.close();
    throw error;
  }
}

/**
 * Run ids from monotonic ULIDs. `ulid` (and with it node:crypto) is loaded at the first run a
 * store creates: a store that only reads never loads it.
 */
function ulidRunIds(now: () => Date): () => Promise<string> {
  let next: ((time: number) => string) | undefined;
  return async () => {
    const { monotonicFactory } = await import("ulid");
    next ??= monotonicFactory();
    return `run_${next(now().getTime())}`;
  };
}
