import type { Envelope } from "@baton/protocol/core";
import type { LiveListener } from "./live-tap.ts";

/** Ephemeral events waiting for their durable predecessor; a bound (they are lossy by nature). */
const MAX_HELD = 4096;

/**
 * A run's durable events (`durable`, a follow from `after`) with its ephemeral events put in
 * place: an ephemeral event tagged `after_seq` N comes right after the durable event N. One
 * that arrives when the follow is already past N is dropped (shown later it would follow the
 * message it was streaming); one ahead of the follow waits for it.
 */
export async function* withEphemeral(
  durable: (signal: AbortSignal) => AsyncGenerator<Envelope>,
  tap: (listener: LiveListener, signal: AbortSignal) => void,
  after: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<Envelope> {
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  let frontier = after;
  const held: Array<{ event: Envelope; afterSeq: number }> = [];
  let wake: (() => void) | undefined;
  tap((event, afterSeq) => {
    if (afterSeq < frontier) return;
    if (held.length >= MAX_HELD) held.shift();
    held.push({ event, afterSeq });
    wake?.();
  }, stop.signal);
  const events = durable(stop.signal);
  let next = events.next();
  try {
    for (;;) {
      while (held[0] !== undefined && held[0].afterSeq <= frontier) {
        const { event, afterSeq } = held.shift() as { event: Envelope; afterSeq: number };
        if (afterSeq === frontier) yield event;
      }
      const arrived = new Promise<undefined>((resolve) => (wake = () => resolve(undefined)));
      const result = await Promise.race([next, arrived]);
      wake = undefined;
      if (result === undefined) continue;
      if (result.done === true) return;
      frontier = result.value.seq ?? frontier;
      yield result.value;
      next = events.next();
    }
  } finally {
    signal?.removeEventListener("abort", onAbort);
    // Aborting ends the durable follow's wait, so its return does not hang on an idle run.
    stop.abort();
    // A consumer that stopped early leaves a read pending: its failure is nobody's now.
    next.catch(() => {});
    await events.return(undefined);
  }
}
