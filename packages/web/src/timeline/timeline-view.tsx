import { useMemo } from "preact/hooks";
import type { StageVisitState, WorkflowState } from "@baton/protocol/core";
import type { Api } from "../api/client.ts";
import { formatDuration } from "../format/format.ts";
import { StatusBadge } from "../runs/status-badge.tsx";
import type { StreamingText, TimelineItem } from "./items.ts";
import { groupByStage, type StageGroup, type TimelineSection } from "./stage-groups.ts";
import type { TimelineState } from "./timeline.ts";
import { EndView, NoteView, PlanView, ToolView } from "./item-views.tsx";
import { MarkdownView } from "../markdown/markdown-view.tsx";
import { PermissionView } from "./permission-view.tsx";
import { QuestionView } from "./question-view.tsx";
import { groupByTurn, type TurnSection } from "./turn-groups.ts";

// An agent's messages are Markdown made safe (MarkdownView: no raw HTML, no images, links with
// their target shown); everything else an agent writes is rendered as text nodes only.

/**
 * The run's events as a list, grouped by stage for a workflow run. Each item says which seqs
 * it shows (`data-seqs`); a group shows none of its own.
 */
export function TimelineView({ api, runRef, timeline }: { api: Api; runRef: string; timeline: TimelineState }) {
  const sections = useMemo(() => (timeline.items.some((item) => item.stage !== undefined) ? joinItems(groupByStage(timeline.items)) : undefined), [timeline.items]);
  const workflow = timeline.summary.workflow;
  return (
    <section class="timeline" aria-label="Timeline">
      <ol class="items">
        {sections === undefined
          ? <TurnRows api={api} runRef={runRef} items={timeline.items} running={timeline.summary.status === "running"} />
          : sections.map((section) => <SectionRow key={sectionKey(section)} api={api} runRef={runRef} section={section} workflow={workflow} running={timeline.summary.status === "running"} />)}
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

/** Items outside any stage that come one after another, shown together (so their bookkeeping folds together). */
type Section = Exclude<TimelineSection, { kind: "item" }> | { kind: "items"; items: TimelineItem[] };

function joinItems(sections: readonly TimelineSection[]): Section[] {
  const joined: Section[] = [];
  for (const section of sections) {
    const last = joined.at(-1);
    if (section.kind !== "item") joined.push(section);
    else if (last?.kind === "items") last.items.push(section.item);
    else joined.push({ kind: "items", items: [section.item] });
  }
  return joined;
}

function sectionKey(section: Section): string {
  return section.kind === "items" ? `seq-${section.items[0]?.seqs[0] ?? 0}` : section.kind === "stage" ? `stage-${section.key}` : `branch-${section.branch}`;
}

type RowProps = { api: Api; runRef: string; running: boolean };

/** Items grouped by turn, with bookkeeping folded away (closed) wherever it comes. */
function TurnRows({ items, ...props }: RowProps & { items: readonly TimelineItem[] }) {
  const sections = useMemo(() => groupByTurn(items), [items]);
  return <>{sections.map((section) => <TurnRow key={turnKey(section)} {...props} section={section} />)}</>;
}

function turnKey(section: TurnSection): string {
  if (section.kind === "item") return `seq-${section.item.seqs[0] ?? 0}`;
  if (section.kind === "fold") return `fold-${section.items[0]?.seqs[0] ?? 0}`;
  const first = section.entries[0];
  return `turn-${section.turn}-${first === undefined ? "" : turnKey(first)}`;
}

function TurnRow({ section, ...props }: RowProps & { section: TurnSection }) {
  if (section.kind === "item") return <ItemRow {...props} item={section.item} />;
  if (section.kind === "fold") {
    const types = [...new Set(section.items.map((item) => (item.kind === "note" ? item.type.replace(/\.updated$/, "") : item.kind)))];
    return (
      <li class="fold" data-seqs="">
        <details>
          <summary class="dim">
            {types.join(", ")} ({section.items.length})
          </summary>
          <ol class="items">
            {section.items.map((item) => (
              <ItemRow key={item.seqs[0]} {...props} item={item} />
            ))}
          </ol>
        </details>
      </li>
    );
  }
  return (
    <li class="turn-group" data-turn={section.turn} data-seqs="">
      <p class="turn-head">Turn {section.turn}</p>
      <ol class="items">
        {section.entries.map((entry) => (
          <TurnRow key={turnKey(entry)} {...props} section={entry} />
        ))}
      </ol>
    </li>
  );
}

function SectionRow({ api, runRef, section, workflow, running }: RowProps & { section: Section; workflow: WorkflowState }) {
  if (section.kind === "items") return <TurnRows api={api} runRef={runRef} running={running} items={section.items} />;
  if (section.kind === "stage") return <StageRow api={api} runRef={runRef} running={running} group={section} workflow={workflow} />;
  return (
    <li class="branch-group" data-branch={section.branch}>
      <p class="branch-head">Branch {section.branch}</p>
      <ol class="items">
        {section.stages.map((group) => (
          <StageRow key={group.key} api={api} runRef={runRef} running={running} group={group} workflow={workflow} />
        ))}
      </ol>
    </li>
  );
}

function StageRow({ api, runRef, group, workflow, running }: RowProps & { group: StageGroup; workflow: WorkflowState }) {
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
        <TurnRows api={api} runRef={runRef} running={running} items={group.items} />
      </ol>
    </li>
  );
}

function ItemRow({ api, runRef, item, running }: RowProps & { item: TimelineItem }) {
  return (
    <li class={`item item-${item.kind}`} data-seqs={item.seqs.join(" ")}>
      <ItemView api={api} runRef={runRef} item={item} running={running} />
    </li>
  );
}

function ItemView({ api, runRef, item, running }: RowProps & { item: TimelineItem }) {
  switch (item.kind) {
    case "message":
      return <MarkdownView text={item.text} />;
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
      return <PermissionView api={api} runRef={runRef} item={item} running={running} />;
    case "question":
      return <QuestionView api={api} runRef={runRef} item={item} running={running} />;
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
