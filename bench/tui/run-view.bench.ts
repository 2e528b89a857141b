// The terminal UI's run view on a long run: how fast it folds a run's events as they arrive
// (the run state, its open questions, the timeline's lines, the panels' rows: what `baton tui`
// does per event), and what one frame costs to produce once N events are in (the timeline's
// window and the tools panel's rows on a 24-row screen), against the same frame of a 100-event
// run and against drawing every line (what a view that is not windowed would do per frame).
// Prints figures and ratios; asserts nothing.
//   node bench/tui/run-view.bench.ts [--events N] [--frames F] [--quick]   (default 100,000 and 2,000)
import { foldQuestion, questionLog } from "@baton/engine/input";
import { applyEvent, initialRunState, type Envelope } from "@baton/protocol/core";
import { RunPanels } from "../../packages/cli/src/tui/run-panels.ts";
import { toolRows } from "../../packages/cli/src/tui/run-view.ts";
import { Timeline } from "../../packages/cli/src/tui/timeline.ts";
import { fixed, median, sizeArg, whole } from "../measure.ts";

const EVENTS = sizeArg("events", "BATON_BENCH_EVENTS", 100_000, 20_000);
const FRAMES = sizeArg("frames", "BATON_BENCH_FRAMES", 2_000, 500);
const ROUNDS = 3;
const HEIGHT = 20;

/** A run of `count` events: a turn of messages, each third event a tool call's start or end. */
function runEvents(count: number): Envelope[] {
  const at = "2026-01-01T00:00:00.000Z";
  const events: Envelope[] = [
    { v: 1, run: "run_bench", seq: 1, at, type: "run.created", data: { number: 1, task: "bench", agent: "fake", repo: { root: "/r", dirty: false } } },
    { v: 1, run: "run_bench", seq: 2, at, type: "run.started", data: { attempt: 1, resumed: false, pid: 1, host: "h" } },
    { v: 1, run: "run_bench", seq: 3, at, type: "turn.started", data: { session: "s", turn: 1, reason: "task" } },
  ];
  for (let seq = 4; events.length < count; seq += 1) {
    const n = seq % 3;
    const call = `call_${Math.floor(seq / 3)}`;
    const data =
      n === 0
        ? { type: "agent.message", data: { session: "s", turn: 1, text: `message ${seq}: the agent explains what it does next, in a line of prose` } }
        : n === 1
          ? { type: "tool.started", data: { session: "s", call, tool: "execute", kind: "execute", title: `npm test -- --grep case-${seq}` } }
          : { type: "tool.completed", data: { session: "s", call, tool: "execute", status: "completed", is_error: false, duration_ms: 40, output_chars: 12, preview: "12 passing" } };
    events.push({ v: 1, run: "run_bench", seq, at, ...data } as Envelope);
  }
  return events;
}

type Folded = { timeline: Timeline; panels: RunPanels };

function fold(events: readonly Envelope[]): Folded {
  const timeline = new Timeline(1);
  const panels = new RunPanels();
  const state = initialRunState();
  const questions = questionLog([]);
  for (const event of events) {
    timeline.add(event);
    panels.add(event);
    applyEvent(state, event);
    foldQuestion(questions, event);
  }
  return { timeline, panels };
}

/** Mean µs to produce one frame's rows: the timeline's window at a scroll position, and the tools panel's. */
function frameMicros(folded: Folded, frames: number, whole: boolean): number {
  let sink = 0;
  const started = performance.now();
  for (let frame = 0; frame < frames; frame += 1) {
    const fromEnd = frame % 50;
    const rows = whole ? folded.timeline.window(folded.timeline.length, 0) : folded.timeline.window(HEIGHT, fromEnd);
    const tools = whole ? toolRows(folded.panels, 0, folded.panels.calls.length, 0) : toolRows(folded.panels, Math.max(0, folded.panels.calls.length - HEIGHT - fromEnd), HEIGHT, 0);
    sink += rows.length + tools.length;
  }
  const elapsed = performance.now() - started;
  if (sink === 0) throw new Error("no rows drawn");
  return (elapsed * 1000) / frames;
}

const long = runEvents(EVENTS);
const short = runEvents(100);
const foldRates: number[] = [];
const longFrames: number[] = [];
const shortFrames: number[] = [];
const wholeFrames: number[] = [];
let folded: Folded | undefined;
for (let round = 0; round < ROUNDS; round += 1) {
  const started = performance.now();
  folded = fold(long);
  foldRates.push(long.length / ((performance.now() - started) / 1000));
  const small = fold(short);
  longFrames.push(frameMicros(folded, FRAMES, false));
  shortFrames.push(frameMicros(small, FRAMES, false));
  wholeFrames.push(frameMicros(folded, Math.max(5, Math.floor(FRAMES / 100)), true));
}
const lines = folded?.timeline.length ?? 0;
console.log(`run view of a ${whole(EVENTS)}-event run (${whole(lines)} timeline lines, ${whole(folded?.panels.calls.length ?? 0)} tool calls), ${ROUNDS} rounds, medians:`);
console.log(`  fold: ${whole(median(foldRates))} events/s (${fixed(EVENTS / median(foldRates), 2)} s for the whole run)`);
console.log(`  one frame's rows (${HEIGHT}-row window, timeline and tools): ${fixed(median(longFrames), 1)} µs at ${whole(EVENTS)} events, ${fixed(median(shortFrames), 1)} µs at 100 events: ratio ${fixed(median(longFrames) / median(shortFrames), 2)} (aim ≤ 2)`);
console.log(`  every line drawn instead (not windowed): ${fixed(median(wholeFrames) / 1000, 1)} ms a frame: the window is ${whole(median(wholeFrames) / median(longFrames))}× cheaper`);
