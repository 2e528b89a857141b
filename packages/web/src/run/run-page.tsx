import { isFinalType } from "@baton/protocol/core";
import { useEffect, useState } from "preact/hooks";
import { lastingFailure, type Api } from "../api/client.ts";
import { ConnectionBadge } from "../connection/connection-badge.tsx";
import { followStream, type ConnectionState } from "../stream/follow-stream.ts";
import { applyEvents, clearStreaming, initialTimeline } from "../timeline/timeline.ts";
import { TimelineView } from "../timeline/timeline-view.tsx";
import { GatePanel } from "../workflow/gate-panel.tsx";
import { WorkflowGraph } from "../workflow/workflow-graph.tsx";
import { RunHeader } from "./run-header.tsx";
import { useStickToBottom } from "./use-stick-to-bottom.ts";

/**
 * One run, live: its header, for a workflow run its graph and the gate it waits at, and its
 * timeline, all folded from the run's event stream. A paused run's stream stays open, so the
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
  useEffect(() => {
    document.title = `Run ${timeline.summary.number ?? runRef} (${timeline.summary.status}) · Baton`;
  }, [runRef, timeline.summary.number, timeline.summary.status]);

  const { summary } = timeline;
  const gate = summary.status === "paused" ? summary.workflow.gate : undefined;
  return (
    <article class="run" aria-labelledby="run-title">
      <RunHeader api={api} runRef={runRef} summary={summary} />
      <ConnectionBadge state={connection.state} detail={connection.detail} />
      {gate !== undefined && <GatePanel key={`${gate.gate}@${gate.requested_at}`} api={api} runRef={runRef} gate={gate} />}
      {summary.workflow.nodes.length > 0 && <WorkflowGraph summary={summary} />}
      <TimelineView api={api} runRef={runRef} timeline={timeline} />
    </article>
  );
}

/** Why the stream cannot open, when asking again will not help (unknown run, bad token). */
function diagnose(api: Api, runRef: string): Promise<string | undefined> {
  return api.getRun(runRef).then(() => undefined, lastingFailure);
}
