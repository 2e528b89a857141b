import type { RunSummary, Store } from "@baton/engine/store";
import { isFinalStatus } from "@baton/protocol/core";
import { parseRef } from "./params.ts";

/**
 * The run a path names, brought up to date first: a run whose writer died is ended now
 * (`run.failed`, interrupted), as every CLI command does, so no view shows it running forever.
 */
export async function resolveFresh(store: Store, ref: string): Promise<RunSummary> {
  const run = store.resolveRun(parseRef(ref));
  if (isFinalStatus(run.status) || run.status === "paused") return run;
  await store.recoverIfAbandoned(run.id);
  return store.getRun(run.id) ?? run;
}
