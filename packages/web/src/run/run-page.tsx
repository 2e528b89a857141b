import { isFinalType } from "@baton/protocol/core";
import { useEffect, useState } from "preact/hooks";
import { lastingFailure, type Api } from "../api/client.ts";
import { ConnectionBadge } from "../connection/connection-badge.tsx";
import { followStream, type ConnectionState } from "../stream/follow-stream.ts";
import { applyEvents, clearStreaming, initialTimeline, type TimelineState } from "../timeline/timeline.ts";
import { TimelineView } from "../timeline/timeline-view.tsx";
import { GatePanel } from "../workflow/gate-panel.tsx";
import { WorkflowGraph } from "../workflow/workflow-graph.tsx";
import { showAttention } from "../app/attention.ts";
import { ArtifactsView } from "../artifacts/artifacts-view.tsx";
import { ChangesView } from "../changes/changes-view.tsx";
import { UsageCharts } from "../chart/usage-chart.tsx";
import { isEnded } from "../timeline/summary.ts";
import { RunHeader } from "./run-header.tsx";
import { SteerBox } from "./steer-box.tsx";
import { useStickToBottom } from "./use-stick-to-bottom.ts";

/**
 * One run, live: its summary, the gate it waits at and the steering box, a workflow run's
 * graph, what it changed, its artifacts, its usage charts and its timeline, all folded from
 * (or fetched when told by) the run's event stream. A paused run's stream stays open, so the
 * page follows the run when an answer resumes it.
 */
export function RunPage({ api, runRef }: { api: Api; runRef: string }) {
  const [timeline, setTimeline] = useState(initialTimeline);
  const [connection, setConnection] = useState<{ state: ConnectionState; detail?: string }>({ state: "connecting" });

  useEffect(() => {
    const follower = followStream({
      url: (after) => api.runStreamUrl(runRef, after),
      open: (url) => new EventSource(url),
      cursorOf: (event) => event.seq,
      isLast: (event) => isFinalType(event.type),
      onEvents: (events) => setTimeline((state) => applyEvents(state, events)),
      onState: (state, detail) => setConnection({ state, detail }),
      onReconnect: () => setTimeline(clearStreaming),
      diagnose: () => diagnose(api, runRef),
    });
    return () => follower.close();
  }, [api, runRef]);
  useStickToBottom(timeline);
  const { summary } = timeline;
  const gate = summary.status === "paused" ? summary.workflow.gate : undefined;
  // A person is awaited: at a gate, by a permission question an `ask` rule put, or by a question the agent asked.
  const asking =
    summary.status === "running" &&
    timeline.items.some((item) => (item.kind === "permission" && item.awaitingPerson === true && item.decision === undefined) || (item.kind === "question" && item.awaitingPerson === true && item.action === undefined));
  const waiting = gate !== undefined || asking;
  useEffect(() => {
    showAttention(`Run ${summary.number ?? runRef} (${waiting ? "waiting for you" : summary.status}) · Baton`, waiting ? 1 : 0);
  }, [runRef, summary.number, summary.status, waiting]);
  const counts = countTypes(timeline.items);
  // The change is fetched again when the workspace, a commit, a changed file or the end says it moved.
  const diffVersion = `${summary.workspace?.path ?? ""}|${summary.commit?.sha ?? ""}|${counts.files}|${isEnded(summary.status)}`;
  return (
    <article class="run" aria-labelledby="run-title">
      <RunHeader api={api} runRef={runRef} summary={summary} />
      <ConnectionBadge state={connection.state} detail={connection.detail} />
      {gate !== undefined && <GatePanel key={`${gate.gate}@${gate.requested_at}`} api={api} runRef={runRef} gate={gate} />}
      {summary.status === "running" && <SteerBox api={api} runRef={runRef} inputs={timeline.inputs} />}
      {summary.workflow.nodes.length > 0 && <WorkflowGraph summary={summary} />}
      {summary.workspace !== undefined && <ChangesView api={api} runRef={runRef} version={diffVersion} />}
      <ArtifactsView api={api} runRef={runRef} count={counts.artifacts} />
      <UsageCharts usage={timeline.usage} />
      <TimelineView api={api} runRef={runRef} timeline={timeline} />
    </article>
  );
}

function countTypes(items: TimelineState["items"]): { files: number; artifacts: number } {
  let files = 0;
  let artifacts = 0;
  for (const item of items) {
    if (item.kind !== "note") continue;
    if (item.type === "file.changed") files += item.seqs.length;
    else if (item.type === "artifact.captured") artifacts += item.seqs.length;
  }
  return { files, artifacts };
}

/** Why the stream cannot open, when asking again will not help (unknown run, bad token). */
function diagnose(api: Api, runRef: string): Promise<string | undefined> {
  return api.getRun(runRef).then(() => undefined, lastingFailure);
}
