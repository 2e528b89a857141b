/** The store contract: what every store of runs and events gives the rest of Baton. */
export type { RunStore, RecoveredRun } from "./run-store.ts";
export type { RunStoreWriter, DurableEnvelope, EventListener } from "./run-store-writer.ts";
export type { RunSummary } from "./run-summary.ts";
export type { ReadRunOptions, FollowRunOptions, ReadFeedOptions, FollowFeedOptions, LiveListener, MalformedLine, OnMalformed } from "./reading.ts";
