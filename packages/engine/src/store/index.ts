/**
 * The run store: the contract every store keeps (`contract/`), and the embedded store (`file/`:
 * one durable, ordered log per run, `runs/<id>/events.jsonl`, written by one locked writer with
 * group commit, and index.db, SQLite, holding the run catalog and the cross-run feed). See
 * `openStore`.
 */
export type {
  RunStore,
  RecoveredRun,
  RunStoreWriter,
  DurableEnvelope,
  EventListener,
  RunSummary,
  ReadRunOptions,
  FollowRunOptions,
  ReadFeedOptions,
  FollowFeedOptions,
  LiveListener,
  MalformedLine,
  OnMalformed,
} from "./contract/index.ts";
/** The former names of the contract's two types, kept so that code written against them still builds. */
export type { RunStore as Store, RunStoreWriter as RunWriter } from "./contract/index.ts";
export { openStore, migrateStore, storeStatus, checkStoreUrl, type StoreOptions, type StoreStatus } from "./open-store.ts";
export { displayUrl } from "./store-url.ts";
export { nodeLogFileSystem, type LogFileSystem } from "./file/log/log-file-system.ts";
export { INTERRUPTED_CODE } from "./file/recovery/recovery.ts";
export { storeFailure, storeFailureKind, type StoreFailureKind } from "./file/store-failure.ts";
export type { IndexSetAside, OnIndexSetAside } from "./file/index/index-set-aside.ts";
