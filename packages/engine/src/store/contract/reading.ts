import type { Envelope } from "@baton/protocol/core";

/** A log line that is not an event, as a reader met it. */
export type MalformedLine = { file: string; line: number; error: string; text: string };

export type OnMalformed = (malformed: MalformedLine) => void;

export type ReadRunOptions = {
  /** Yield events with seq > after (default 0: from the start). */
  after?: number;
  /** Where malformed lines are reported (default: the store's `onMalformed`). */
  onMalformed?: OnMalformed;
};

export type FollowRunOptions = ReadRunOptions & {
  /** Ends the follow (the iteration returns, it does not throw). */
  signal?: AbortSignal;
  /**
   * When the run looks idle and its writer is gone, recover it (append `run.failed`
   * interrupted) so that the follow ends. Default true: a follower of a run whose process
   * was killed must not wait forever.
   */
  recoverAbandoned?: boolean;
  /** Also yield the run's ephemeral events, each after the durable event it followed. */
  ephemeral?: boolean;
};

export type ReadFeedOptions = {
  /** Yield events with pos > after (default 0: from the start). */
  after?: number;
  onMalformed?: OnMalformed;
};

export type FollowFeedOptions = ReadFeedOptions & { signal?: AbortSignal };

/** An ephemeral event, with the seq of the last durable event appended before it was published. */
export type LiveListener = (event: Envelope, afterSeq: number) => void;
