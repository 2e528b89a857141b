import { formatCost, formatDuration } from "../format/format.ts";
import { StatusBadge } from "../runs/status-badge.tsx";
import type { EndItem, NoteItem, PlanEntry, ToolItem } from "./items.ts";

const PLAN_MARKS: Record<string, string> = { completed: "✓", in_progress: "…", pending: "○" };

export function PlanView({ entries }: { entries: readonly PlanEntry[] }) {
  return (
    <div class="plan">
      <p class="label">Plan</p>
      <ul>
        {entries.map((entry, index) => (
          <li key={index} class={`plan-${/^[a-z_]+$/.test(entry.status) ? entry.status : "other"}`}>
            <span class="mark" aria-hidden="true">
              {PLAN_MARKS[entry.status] ?? "·"}
            </span>{" "}
            {entry.content} <span class="visually-hidden">({entry.status})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ToolView({ item, outputUrl }: { item: ToolItem; outputUrl: string | undefined }) {
  const facts = [
    item.exitCode !== undefined ? `exit ${item.exitCode}` : undefined,
    item.durationMs !== undefined ? formatDuration(item.durationMs) : undefined,
    item.timedOut ? "timed out" : undefined,
    item.isError && item.status === "completed" ? "error" : undefined,
  ].filter((fact) => fact !== undefined);
  return (
    <div class="tool">
      <p class="tool-head">
        <span class="tool-name">{item.tool}</span>
        {item.toolKind !== undefined && item.toolKind !== item.tool && <span class="tool-kind">{item.toolKind}</span>}
        {item.title !== undefined && <span class="tool-title">{item.title}</span>}
        <StatusBadge status={item.status} />
        {facts.length > 0 && <span class="tool-facts">{facts.join(" · ")}</span>}
      </p>
      {item.preview !== undefined && item.preview !== "" && <pre class="preview">{item.preview}</pre>}
      {outputUrl !== undefined && (
        <a class="output-link" href={outputUrl} target="_blank" rel="noopener noreferrer">
          Full output{item.outputChars !== undefined ? ` (${item.outputChars.toLocaleString("en")} characters)` : ""}
        </a>
      )}
    </div>
  );
}

export function EndView({ item }: { item: EndItem }) {
  const figures = [item.durationMs !== undefined ? formatDuration(item.durationMs) : undefined, item.costUsd !== undefined ? formatCost(item.costUsd) : undefined].filter(
    (figure) => figure !== undefined,
  );
  const handedBack = item.handedBack === true ? "the agent handed back" : item.handedBack === false ? "the agent did not hand back" : undefined;
  return (
    <p class="end">
      Run <StatusBadge status={item.status} />
      {item.stoppedBy !== undefined && <span> by {item.stoppedBy}</span>}
      {handedBack !== undefined && <span>; {handedBack}</span>}
      {item.errorCode !== undefined && <span> ({item.errorCode})</span>}
      {item.message !== undefined && item.message !== "" && <span>: {item.message}</span>}
      {item.providerError !== undefined && <span> · model provider: {item.providerError}</span>}
      {figures.length > 0 && <span class="dim"> · {figures.join(" · ")}</span>}
    </p>
  );
}

export function NoteView({ item }: { item: NoteItem }) {
  return (
    <p class={`line tone-${item.tone}${item.known ? "" : " unknown"}`} data-type={item.type}>
      {item.text}
    </p>
  );
}
