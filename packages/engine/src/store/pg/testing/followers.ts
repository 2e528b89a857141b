// For the PostgreSQL store's fault tests: followers that read in the background while a test
// breaks the connection under them, and a wait for what they have seen.
import type { Envelope, FeedEnvelope } from "@baton/protocol/core";
import type { RunStore } from "../../contract/index.ts";

/** Longest a test waits for followers to catch up (a loaded 2-core CI box). */
export const CATCH_UP_MS = 30_000;
/** How often a condition is looked at again. */
const POLL_MS = 25;

/** Polls `condition` until it holds; throws naming `what` after `timeoutMs`. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = CATCH_UP_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What a follower has got so far, and its end (it ends when its run does, or when stopped). */
export type Following<T> = { readonly seen: T[]; readonly ended: Promise<void> };

function collect<T>(items: AsyncIterable<T>): Following<T> {
  const seen: T[] = [];
  const ended = (async () => {
    for await (const item of items) seen.push(item);
  })();
  return { seen, ended };
}

/** A follower of one run, reading into `seen` until its final event or `signal`. */
export function followRunInBackground(store: Pick<RunStore, "followRun">, runId: string, signal: AbortSignal): Following<Envelope> {
  return collect(store.followRun(runId, { signal }));
}

/**
 * A follower of one run and one of the store's feed, both reading in the background; `stop`
 * aborts both and waits for their ends (a follower's error fails it).
 *
 * @example
 * const followers = followRunAndFeed(followerStore, writer.runId);
 * await until("the followers to see the first events", () => followers.run.length === 2 && followers.feed.length === 2);
 * await followers.stop();
 */
export function followRunAndFeed(store: Pick<RunStore, "followRun" | "followFeed">, runId: string): { run: Envelope[]; feed: FeedEnvelope[]; stop(): Promise<void> } {
  const stopping = new AbortController();
  const run = followRunInBackground(store, runId, stopping.signal);
  const feed = collect(store.followFeed({ signal: stopping.signal }));
  const ended = Promise.all([run.ended, feed.ended]);
  return {
    run: run.seen,
    feed: feed.seen,
    stop: async () => {
      stopping.abort();
      await ended;
    },
  };
}
