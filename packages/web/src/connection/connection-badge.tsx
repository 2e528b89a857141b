import type { ConnectionState } from "../stream/follow-stream.ts";

const LABELS: Record<ConnectionState, string> = {
  connecting: "connecting",
  live: "live",
  reconnecting: "reconnecting…",
  ended: "ended",
  error: "disconnected",
};

/** The state of the page's stream, announced politely to screen readers when it changes. */
export function ConnectionBadge({ state, detail }: { state: ConnectionState; detail?: string }) {
  return (
    <p class={`connection connection-${state}`} role="status" aria-live="polite" data-connection={state}>
      <span class="dot" aria-hidden="true" />
      <span>{LABELS[state]}</span>
      {detail !== undefined && <span class="detail">: {detail}</span>}
    </p>
  );
}
