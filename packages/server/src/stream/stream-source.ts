import type { Envelope } from "@baton/protocol/core";

/** An ephemeral event and the cursor of the durable event it follows. */
export type EphemeralListener = (event: Envelope, afterCursor: number) => void;

/**
 * What a hub follows: one run's log by seq, or the cross-run feed by pos. `read` serves a
 * client's own catch-up from the log; `follow` is the hub's one live follower.
 */
export type StreamSource = {
  /** Events with cursor > `after`, up to what is committed now. */
  read(after: number): AsyncIterable<Envelope>;
  /** Events with cursor > `after`, then new ones; ends after a final event (a run) or never (the feed). */
  follow(after: number, signal: AbortSignal): AsyncIterable<Envelope>;
  /** The event's cursor (seq or pos); undefined for an ephemeral event. */
  cursorOf(event: Envelope): number | undefined;
  /** True for the event after which the stream ends (a run's final event; nothing on the feed). */
  isFinal(event: Envelope): boolean;
  /** Ephemeral events of a live run, from its writer in this process or in another one. Returns the unsubscribe function. */
  subscribeEphemeral?: (listener: EphemeralListener) => () => void;
};
