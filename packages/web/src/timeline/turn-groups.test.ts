import assert from "node:assert/strict";
import { test } from "node:test";
import type { TimelineItem } from "./items.ts";
import { groupByTurn } from "./turn-groups.ts";
import { definedFields } from "@baton/protocol/core";

const note = (seq: number, type: string, turn?: number): TimelineItem => ({ kind: "note", seqs: [seq], type, text: type, tone: "dim", known: true, ...definedFields({ turn }) });
const say = (seq: number, turn?: number): TimelineItem => ({ kind: "message", seqs: [seq], text: `m${seq}`, ...definedFields({ turn }) });

test("items group by turn, bookkeeping folds, and every item keeps its place once", () => {
  const items = [note(1, "run.started"), note(2, "agent.started"), note(3, "turn.started", 1), say(4, 1), note(5, "usage.updated", 1), note(6, "budget.updated", 1), say(7, 1), note(8, "turn.completed", 1), note(9, "turn.started", 2), say(10, 2), note(11, "run.completed")];
  const sections = groupByTurn(items);
  const shape = sections.map((section) =>
    section.kind === "turn"
      ? { turn: section.turn, entries: section.entries.map((entry) => (entry.kind === "fold" ? entry.items.map((item) => item.seqs[0]) : entry.item.seqs[0])) }
      : section.kind === "fold"
        ? section.items.map((item) => item.seqs[0])
        : section.item.seqs[0],
  );
  assert.deepEqual(shape, [1, [2], { turn: 1, entries: [[3], 4, [5, 6], 7, 8] }, { turn: 2, entries: [[9], 10] }, 11]);
});
