import type { DatabaseSync } from "node:sqlite";
import type { CommitBus } from "./commit-bus.ts";
import type { FeedRows } from "./feed-rows.ts";
import type { HintFile } from "./hint-file.ts";
import type { StoreLayout } from "./layout.ts";
import type { LogFileSystem } from "./log-file-system.ts";
import type { OnMalformed } from "./log-range-reader.ts";
import type { ProcessIdentity } from "./process-identity.ts";
import type { RunCatalog } from "./run-catalog.ts";
import type { RunWriter } from "./run-writer.ts";

/** Everything the parts of one open store share. Passed in, never global. */
export type StoreContext = {
  layout: StoreLayout;
  db: DatabaseSync;
  catalog: RunCatalog;
  feed: FeedRows;
  bus: CommitBus;
  feedHint: HintFile;
  fileSystem: LogFileSystem;
  now: () => Date;
  /** `now()` in epoch milliseconds, for the writer's per-event stamp. */
  nowMs: () => number;
  newRunId: () => string;
  identity: ProcessIdentity;
  eventLimitBytes: number;
  pollMs: number;
  /** Writers serve their ephemeral events on a live socket (see live-server.ts). */
  liveEvents: boolean;
  onMalformed: OnMalformed;
  onClosed: (writer: RunWriter) => void;
};
