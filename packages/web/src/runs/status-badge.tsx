/** The words a status is shown with, where the status's own name says less to a reader. */
const SHOWN_AS: Record<string, { text: string; title: string }> = {
  paused: { text: "waiting", title: "paused: waiting for an answer at a gate" },
};

/** A run's or a tool call's status as a small coloured label (the word itself carries the meaning). */
export function StatusBadge({ status }: { status: string }) {
  const shown = Object.hasOwn(SHOWN_AS, status) ? SHOWN_AS[status] : undefined;
  return (
    <span class={`badge badge-${/^[a-z_]+$/.test(status) ? status : "other"}`} data-status={status} title={shown?.title}>
      {shown?.text ?? status}
    </span>
  );
}
