import type { RunStore } from "@baton/engine/store";
import { applyEvent, initialRunState, type Envelope, type RunState } from "@baton/protocol/core";

/**
 * A run's state, folded from its whole log (`show`, `diff` and `clean` all start here).
 * `alsoFold` sees each event too, for a view that counts more than the state keeps.
 */
export async function readRunState(store: RunStore, runId: string, alsoFold?: (event: Envelope) => void): Promise<RunState> {
  const state = initialRunState();
  for await (const event of store.readRun(runId, { after: 0 })) {
    applyEvent(state, event);
    alsoFold?.(event);
  }
  return state;
}
