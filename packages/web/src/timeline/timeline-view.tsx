import type { Api } from "../api/client.ts";
import type { StreamingText, TimelineItem } from "./items.ts";
import type { TimelineState } from "./timeline.ts";
import { EndView, NoteView, PermissionView, PlanView, ToolView } from "./item-views.tsx";

// Agent text is rendered as text nodes only (never as HTML or Markdown), so whatever an agent
// writes — tags, scripts, links — shows literally and cannot act on the page.

/** The run's events as a list. Each item says which seqs it shows (`data-seqs`). */
export function TimelineView({ api, runRef, timeline }: { api: Api; runRef: string; timeline: TimelineState }) {
  return (
    <section class="timeline" aria-label="Timeline">
      <ol class="items">
        {timeline.items.map((item) => (
          <li key={item.seqs[0]} class={`item item-${item.kind}`} data-seqs={item.seqs.join(" ")}>
            <ItemView api={api} runRef={runRef} item={item} />
          </li>
        ))}
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
