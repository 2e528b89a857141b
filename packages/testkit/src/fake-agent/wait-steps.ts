import { setTimeout as sleep } from "node:timers/promises";

/**
 * `sleep`: waits, cut short by a cancel. Nothing goes on the wire meanwhile, so a long one
 * plays a stalled turn that still answers `session/cancel`.
 */
export async function sleepUnlessCancelled(ms: number, signal: AbortSignal): Promise<void> {
  try {
    await sleep(ms, undefined, { signal });
  } catch (error) {
    if (!signal.aborted) throw error;
  }
}

/**
 * `hang`: waits the whole time whatever arrives, as an agent stuck in a call that does not
 * answer `session/cancel`. A cancel that came meanwhile still ends the turn `cancelled` after.
 */
export async function hangThroughCancel(ms: number): Promise<void> {
  await sleep(ms);
}
