import type { Store } from "@baton/engine/store";
import { applyEvent, initialRunState, type RunState } from "@baton/protocol/core";

/** A run's state, folded from its whole log (`show`, `diff` and `clean` all start here). */
export async function readRunState(store: Store, runId: string): Promise<RunState> {
  const state = initialRunState();
  for await (const event of store.readRun(runId, { after: 0 })) applyEvent(state, event);
  return state;
}
