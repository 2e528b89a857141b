import type { DatabaseSync } from "node:sqlite";
import type { CommitBus } from "./follow/commit-bus.ts";
import type { FeedRows } from "./index/feed-rows.ts";
import type { WalCheckpoints } from "./index/index-db.ts";
import type { HintFile } from "./follow/hint-file.ts";
import type { StoreLayout } from "./layout.ts";
import type { LogFileSystem } from "./log/log-file-system.ts";
import type { OnMalformed } from "./log/log-range-reader.ts";
import type { ProcessIdentity } from "./lock/process-identity.ts";
import type { RunCatalog } from "./index/run-catalog.ts";
import type { RunWriter } from "./log/run-writer.ts";

/** Everything the parts of one open store share. Passed in, never global. */
export type StoreContext = {
  layout: StoreLayout;
  db: DatabaseSync;
  /** Checkpoints of index.db's WAL, between batches (automatic ones are off). */
  checkpoints: WalCheckpoints;
  catalog: RunCatalog;
  feed: FeedRows;
  bus: CommitBus;
  feedHint: HintFile;
  fileSystem: LogFileSystem;
  now: () => Date;
  /** `now()` in epoch milliseconds, for the writer's per-event stamp. */
  nowMs: () => number;
  newRunId: () => string | Promise<string>;
  identity: ProcessIdentity;
  eventLimitBytes: number;
  pollMs: number;
  /** Writers serve their ephemeral events on a live socket (see live-server.ts). */
  liveEvents: boolean;
  onMalformed: OnMalformed;
  onClosed: (writer: RunWriter) => void;
};
