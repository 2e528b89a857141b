import type { RunStore } from "@baton/engine/store";
import { isFinalType, type Envelope } from "@baton/protocol/core";
import type { EphemeralListener, StreamSource } from "./stream-source.ts";

/** The part of a run's writer (in this process) the server listens to for ephemeral events. */
export type LiveWriter = {
  readonly committedSeq: number;
  subscribe(listener: (event: Envelope) => void): () => void;
};

/** Finds the writer of a run written by this process, if any (runs started elsewhere have none). */
export type LiveWriters = (runId: string) => LiveWriter | undefined;

/**
 * A run's log by seq, and its ephemeral events: from the writer itself when this process
 * writes the run, else from the run's live socket (the `baton run` process writing it).
 */
export function runSource(store: RunStore, runId: string, liveWriters: LiveWriters | undefined): StreamSource {
  return {
    read: (after) => store.readRun(runId, { after }),
    follow: (after, signal) => store.followRun(runId, { after, signal }),
    cursorOf: (event) => event.seq,
    isFinal: (event) => isFinalType(event.type),
    subscribeEphemeral: (listener) => {
      const writer = liveWriters?.(runId);
      if (writer !== undefined) return subscribeEphemeral(writer, listener);
      const tap = new AbortController();
      store.tapLive(runId, listener, { signal: tap.signal });
      return () => tap.abort();
    },
  };
}

/** The cross-run feed by pos: never ends. */
export function feedSource(store: RunStore): StreamSource {
  return {
    read: (after) => store.readFeed({ after }),
    follow: (after, signal) => store.followFeed({ after, signal }),
    cursorOf: (event) => (typeof event["pos"] === "number" ? event["pos"] : undefined),
    isFinal: () => false,
  };
}

/**
 * A writer delivers events in append and publish order, durable ones after their commit: the
 * seq of the last durable event it delivered is what an ephemeral event follows.
 */
function subscribeEphemeral(writer: LiveWriter, listener: EphemeralListener): () => void {
  let lastSeq = writer.committedSeq;
  return writer.subscribe((event) => {
    if (event.seq !== undefined) lastSeq = event.seq;
    else listener(event, lastSeq);
  });
}
