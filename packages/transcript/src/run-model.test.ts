import assert from "node:assert/strict";
import { test } from "node:test";
import { foldRunView, runViewFold } from "./run-model.ts";
import { logBuilder, manyToolRun } from "./testing/events.ts";

/** Four turns of one session, each with its tokens: the costliest three get a rank. */
function turns(tokens: number[]) {
  const log = logBuilder();
  log.add("run.created", { number: 1, task: "t", agent: "fake" });
  tokens.forEach((spent, index) => {
    log.add("turn.started", { session: "s1", turn: index + 1, reason: "task" });
    log.add("agent.message", { session: "s1", turn: index + 1, text: `turn ${index + 1}` });
    log.add("turn.completed", { session: "s1", turn: index + 1, stop_reason: "end_turn", usage: { input_tokens: spent, output_tokens: 0 } });
  });
  return log.events;
}

const ranks = (view: ReturnType<typeof foldRunView>) => view.sections.flatMap((s) => s.entries.flatMap((e) => (e.kind === "turn" ? [e.turn.costRank ?? 0] : [])));

test("a run folded one event at a time is the run folded whole", () => {
  const { events } = manyToolRun(20, 100);
  const fold = runViewFold();
  for (const event of events) fold.add(event);
  assert.deepEqual(fold.view(), foldRunView(events));
});

test("a fold read before its last events ranks the costliest turns again when read after them", () => {
  const events = turns([10, 20, 30, 40]);
  const fold = runViewFold();
  for (const event of events.slice(0, 7)) fold.add(event);
  // Two turns so far: both ranked.
  assert.deepEqual(ranks(fold.view()), [2, 1]);
  for (const event of events.slice(7)) fold.add(event);
  assert.deepEqual(ranks(fold.view()), [0, 3, 2, 1]);
  assert.deepEqual(fold.view(), foldRunView(events));
});
