import { useMemo } from "preact/hooks";
import type { StageVisitState, WorkflowState } from "@baton/protocol/core";
import type { Api } from "../api/client.ts";
import { formatDuration } from "../format/format.ts";
import { StatusBadge } from "../runs/status-badge.tsx";
import type { StreamingText, TimelineItem } from "./items.ts";
import { groupByStage, type StageGroup, type TimelineSection } from "./stage-groups.ts";
import type { TimelineState } from "./timeline.ts";
import { EndView, NoteView, PermissionView, PlanView, ToolView } from "./item-views.tsx";

// Agent text is rendered as text nodes only (never as HTML or Markdown), so whatever an agent
// writes — tags, scripts, links — shows literally and cannot act on the page.

/**
 * The run's events as a list, grouped by stage for a workflow run. Each item says which seqs
 * it shows (`data-seqs`); a group shows none of its own.
 */
export function TimelineView({ api, runRef, timeline }: { api: Api; runRef: string; timeline: TimelineState }) {
  const sections = useMemo(() => (timeline.items.some((item) => item.stage !== undefined) ? groupByStage(timeline.items) : undefined), [timeline.items]);
  const workflow = timeline.summary.workflow;
  return (
    <section class="timeline" aria-label="Timeline">
      <ol class="items">
        {sections === undefined
          ? timeline.items.map((item) => <ItemRow key={item.seqs[0]} api={api} runRef={runRef} item={item} />)
          : sections.map((section) => <SectionRow key={sectionKey(section)} api={api} runRef={runRef} section={section} workflow={workflow} />)}
        {timeline.streaming.map((streaming) => (
          <li key={`streaming-${streaming.session}-${streaming.kind}`} class={`item item-streaming item-${streaming.kind === "text" ? "message" : "thought"}`} aria-busy="true" data-seqs="">
            <StreamingView streaming={streaming} />
          </li>
        ))}
      </ol>
      {timeline.items.length === 0 && timeline.streaming.length === 0 && <p class="empty">No events yet.</p>}
    </section>
  );
}

function sectionKey(section: TimelineSection): string {
  return section.kind === "item" ? `seq-${section.item.seqs[0] ?? 0}` : section.kind === "stage" ? `stage-${section.key}` : `branch-${section.branch}`;
}

function SectionRow({ api, runRef, section, workflow }: { api: Api; runRef: string; section: TimelineSection; workflow: WorkflowState }) {
  if (section.kind === "item") return <ItemRow api={api} runRef={runRef} item={section.item} />;
  if (section.kind === "stage") return <StageRow api={api} runRef={runRef} group={section} workflow={workflow} />;
  return (
    <li class="branch-group" data-branch={section.branch}>
      <p class="branch-head">Branch {section.branch}</p>
      <ol class="items">
        {section.stages.map((group) => (
          <StageRow key={group.key} api={api} runRef={runRef} group={group} workflow={workflow} />
        ))}
      </ol>
    </li>
  );
}

function StageRow({ api, runRef, group, workflow }: { api: Api; runRef: string; group: StageGroup; workflow: WorkflowState }) {
  const { id, visit, branch } = group.stage;
  const attempts = workflow.stages.filter((stage) => stage.stage === id && stage.visit === visit && stage.branch === branch);
  const last: StageVisitState | undefined = attempts.at(-1);
  const waiting = workflow.gate?.gate === id && last?.status === "running";
  const label = workflow.nodes.find((node) => node.id === id)?.label ?? last?.label;
  const status = waiting ? "waiting" : last?.status;
  return (
    <li class="stage-group" data-stage={id} data-visit={visit}>
      <p class="stage-head">
        <span class="stage-name">{label ?? id}</span>
        {label !== undefined && label !== id && <span class="dim">{id}</span>}
        {visit > 1 && <span class="dim">visit {visit}</span>}
        {attempts.length > 1 && <span class="dim">attempt {last?.attempt ?? attempts.length}</span>}
        {last !== undefined && <span class="dim">{last.handler}</span>}
        {status !== undefined && <StatusBadge status={status} />}
        {last?.duration_ms !== undefined && <span class="dim">{formatDuration(last.duration_ms)}</span>}
      </p>
      <ol class="items">
        {group.items.map((item) => (
          <ItemRow key={item.seqs[0]} api={api} runRef={runRef} item={item} />
        ))}
      </ol>
    </li>
  );
}

function ItemRow({ api, runRef, item }: { api: Api; runRef: string; item: TimelineItem }) {
  return (
    <li class={`item item-${item.kind}`} data-seqs={item.seqs.join(" ")}>
      <ItemView api={api} runRef={runRef} item={item} />
    </li>
  );
}

function ItemView({ api, runRef, item }: { api: Api; runRef: string; item: TimelineItem }) {
  switch (item.kind) {
    case "message":
      return <p class="text">{item.text}</p>;
    case "thought":
      return (
        <details>
          <summary>Thought</summary>
          <p class="text">{item.text}</p>
        </details>
      );
    case "plan":
      return <PlanView entries={item.entries} />;
    case "tool":
      return <ToolView item={item} outputUrl={item.hasOutput ? api.outputUrl(runRef, item.call) : undefined} />;
    case "permission":
      return <PermissionView item={item} />;
    case "end":
      return <EndView item={item} />;
    case "note":
      return <NoteView item={item} />;
  }
}

function StreamingView({ streaming }: { streaming: StreamingText }) {
  if (streaming.kind === "thought") {
    return (
      <details>
        <summary>Thinking…</summary>
        <p class="text">{streaming.text}</p>
      </details>
    );
  }
  return <p class="text">{streaming.text}</p>;
}
