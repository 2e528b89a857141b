// Items grouped by the agent's turns, with the low-level bookkeeping (usage and budget figures,
// the agent's start, prompts sent) folded into runs of its own that the view closes by default.
import type { TimelineItem } from "./items.ts";

/** Events that are bookkeeping rather than the story of the run. */
const BOOKKEEPING = new Set(["budget.updated", "usage.updated", "agent.started", "turn.started", "model.request.completed", "runner.event", "context.updated", "checkpoint.saved"]);

export function isBookkeeping(item: TimelineItem): boolean {
  return item.kind === "note" && BOOKKEEPING.has(item.type);
}

export type Fold = { kind: "fold"; items: TimelineItem[] };
export type TurnEntry = { kind: "item"; item: TimelineItem } | Fold;
export type TurnGroup = { kind: "turn"; turn: number; entries: TurnEntry[] };
export type TurnSection = TurnEntry | TurnGroup;

/**
 * Consecutive items of one turn make a group; inside and outside groups, consecutive
 * bookkeeping items make a fold. Order is kept and every item is in exactly one place.
 */
export function groupByTurn(items: readonly TimelineItem[]): TurnSection[] {
  const sections: TurnSection[] = [];
  let group: TurnGroup | undefined;
  for (const item of items) {
    if (item.turn === undefined) group = undefined;
    else if (group === undefined || group.turn !== item.turn) {
      group = { kind: "turn", turn: item.turn, entries: [] };
      sections.push(group);
    }
    addEntry(group === undefined ? sections : group.entries, item);
  }
  return sections;
}

function addEntry(entries: Array<TurnEntry | TurnGroup>, item: TimelineItem): void {
  if (!isBookkeeping(item)) {
    entries.push({ kind: "item", item });
    return;
  }
  const last = entries.at(-1);
  if (last?.kind === "fold") last.items.push(item);
  else entries.push({ kind: "fold", items: [item] });
}
