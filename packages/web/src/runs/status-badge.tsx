/** A run's or a tool call's status as a small coloured label (the word itself carries the meaning). */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${/^[a-z_]+$/.test(status) ? status : "other"}`}>{status}</span>;
}
