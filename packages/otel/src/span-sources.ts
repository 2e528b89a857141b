import type { Store } from "@baton/engine/store";
import { definedFields, type Envelope, type FeedEnvelope } from "@baton/protocol/core";
import type { SpanItem } from "./export-loop.ts";
import { RunSpanTree, type SpanTreeOptions } from "./span-tree.ts";

/**
 * One run's spans, with seq as the cursor. After `after`, the events up to it are folded
 * again without yielding (their spans were delivered before), so a span that was open at the
 * cursor is sent whole, with its start, once it ends.
 */
export async function* runSpanItems(store: Store, runId: string, options: SpanTreeOptions & { after?: number; follow?: boolean; signal?: AbortSignal } = {}): AsyncGenerator<SpanItem> {
  const after = options.after ?? 0;
  const tree = new RunSpanTree(runId, options);
  const events: AsyncIterable<Envelope> = options.follow === true ? store.followRun(runId, definedFields({ signal: options.signal })) : store.readRun(runId);
  for await (const event of events) {
    const seq = event.seq ?? 0;
    const spans = tree.push(event);
    if (seq > after) yield { spans, cursor: seq };
  }
}

/**
 * Every run's spans from the store's feed, with pos as the cursor. The first time a run is
 * met after `after`, its earlier events are folded again from its log without yielding, so
 * spans open at the cursor come out whole. A run's tree is let go when nothing in it is open.
 */
export async function* feedSpanItems(store: Store, options: SpanTreeOptions & { after?: number; follow?: boolean; signal?: AbortSignal } = {}): AsyncGenerator<SpanItem> {
  const trees = new Map<string, RunSpanTree>();
  const feedOptions = definedFields({ after: options.after ?? 0, signal: options.signal });
  const feed: AsyncIterable<FeedEnvelope> = options.follow === true ? store.followFeed(feedOptions) : store.readFeed(feedOptions);
  for await (const event of feed) {
    let tree = trees.get(event.run);
    if (tree === undefined) {
      tree = new RunSpanTree(event.run, options);
      trees.set(event.run, tree);
      if ((event.seq ?? 0) > 1) await refold(store, tree, event.run, event.seq ?? 0);
    }
    const spans = tree.push(event);
    if (!tree.open) trees.delete(event.run);
    yield { spans, cursor: event.pos };
  }
}

async function refold(store: Store, tree: RunSpanTree, runId: string, beforeSeq: number): Promise<void> {
  for await (const earlier of store.readRun(runId)) {
    if ((earlier.seq ?? 0) >= beforeSeq) break;
    tree.push(earlier);
  }
}
