import type { RunSummary, RunStore } from "@baton/engine/store";
import { isFinalStatus } from "@baton/protocol/core";

/**
 * The run a path names (its `ref` checked by the route's schema), brought up to date first: a run whose writer died is ended now
 * (`run.failed`, interrupted), as every CLI command does, so no view shows it running forever.
 */
export async function resolveFresh(store: RunStore, ref: string): Promise<RunSummary> {
  const run = await store.resolveRun(ref);
  if (isFinalStatus(run.status) || run.status === "paused") return run;
  await store.recoverIfAbandoned(run.id);
  return await store.getRun(run.id) ?? run;
}
