import { useState } from "preact/hooks";
import type { Api } from "../api/client.ts";
import { formatCost, formatDuration, formatTime, formatTokens } from "../format/format.ts";
import { stoppedByWords } from "../format/limits.ts";
import { isEnded, type RunSummary } from "../timeline/summary.ts";
import { StatusBadge } from "../runs/status-badge.tsx";

export function RunHeader({ api, runRef, summary }: { api: Api; runRef: string; summary: RunSummary }) {
  const [cancelError, setCancelError] = useState<string>();
  const [cancelling, setCancelling] = useState(false);
  const cancel = () => {
    setCancelling(true);
    api.cancelRun(runRef).then(
      () => setCancelError(undefined),
      (error: unknown) => {
        setCancelling(false);
        setCancelError(error instanceof Error ? error.message : String(error));
      },
    );
  };
  const ended = isEnded(summary.status);
  const stoppedBy = stoppedByWords(summary.stopped_by, summary.provider_error);
  const branch = summary.commit?.branch ?? summary.workspace?.branch;
  return (
    <header class="run-header">
      <h1 id="run-title">
        Run {summary.number ?? runRef} <StatusBadge status={summary.status} />
      </h1>
      {summary.task !== undefined && <p class="task">{summary.task}</p>}
      <dl class="facts">
        {summary.agent !== undefined && <Fact term="Agent" value={summary.model ? `${summary.agent} (${summary.model})` : summary.agent} />}
        {summary.started_at !== undefined && <Fact term="Started" value={formatTime(summary.started_at)} />}
        {summary.duration_ms !== undefined && <Fact term="Duration" value={formatDuration(summary.duration_ms)} />}
        <Fact term="Tokens" value={formatTokens(summary.usage.input_tokens, summary.usage.output_tokens)} />
        <Fact term="Cost" value={summary.cost_usd !== undefined ? formatCost(summary.cost_usd) : "none reported"} />
        {branch !== undefined && <Fact term="Branch" value={branch} />}
        {summary.commit !== undefined && <Fact term="Commit" value={`${summary.commit.sha.slice(0, 10)} ${summary.commit.message}`} />}
      </dl>
      {summary.error !== undefined && (
        <p class="run-error" role="alert">
          Failed ({summary.error.code}): {summary.error.message}
          {summary.provider_error !== undefined && ` · model provider: ${summary.provider_error}`}
        </p>
      )}
      {summary.status === "cancelled" && <p class="run-stopped">Cancelled{summary.cancelled_by === undefined ? "" : ` by ${summary.cancelled_by}`}.</p>}
      {summary.status === "stopped" && <p class="run-stopped">Stopped{stoppedBy === undefined ? "" : ` by ${stoppedBy}`}; its work is kept.</p>}
      {/* A paused run has no process to cancel: its gate's Reject ends it. */}
      {!ended && summary.status !== "created" && summary.status !== "paused" && (
        <button type="button" class="cancel" onClick={cancel} disabled={cancelling}>
          {cancelling ? "Cancelling…" : "Cancel run"}
        </button>
      )}
      {cancelError !== undefined && <p role="alert">Could not cancel: {cancelError}</p>}
    </header>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{value}</dd>
    </div>
  );
}
