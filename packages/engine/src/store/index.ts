/**
 * The embedded store: one durable, ordered log per run (`runs/<id>/events.jsonl`), written by
 * one locked writer with group commit, and index.db (SQLite) holding the run catalog and the
 * cross-run feed. See `openStore`.
 */
export { openStore, type StoreOptions } from "./open-store.ts";
export { Store, type RecoveredRun } from "./store.ts";
export { RunWriter, type DurableEnvelope, type EventListener, type RunWriterOptions } from "./run-writer.ts";
export type { LiveListener } from "./live-tap.ts";
export type { RunSummary } from "./run-catalog.ts";
export type { ReadRunOptions, FollowRunOptions } from "./read-run.ts";
export type { ReadFeedOptions, FollowFeedOptions } from "./feed.ts";
export type { MalformedLine, OnMalformed } from "./log-range-reader.ts";
export { nodeLogFileSystem, type LogFileSystem } from "./log-file-system.ts";
export { INTERRUPTED_CODE } from "./recovery.ts";
export { storeFailure, storeFailureKind, type StoreFailureKind } from "./store-failure.ts";
export type { IndexSetAside, OnIndexSetAside } from "./index-set-aside.ts";
